-- Recursion with a tuple result: the sum and the count of decimal digits.
def digits (n: i64) : (i64, i32) =
  if n < 10 then (n, 1)
  else let (s, c) = digits (n / 10) in (s + n % 10, c + 1)

-- ==
-- input { 7i64 } output { 7i64 1i32 }
-- input { 90210i64 } output { 12i64 5i32 }
entry main (n: i64) : (i64, i32) = digits n
