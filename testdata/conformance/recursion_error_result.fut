-- The result of a recursive function must be first-order.
-- ==
-- error: Recursive function "shift" returns type i64 -> i64, which is not first-order

def shift (k: i64) : i64 -> i64 =
  \y -> if k == 0 then y else shift (k - 1) y + 2

entry main (x: i64) = shift 3 x
