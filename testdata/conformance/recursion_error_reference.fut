-- A recursive function with a higher-order parameter may not be used as a
-- value in its own body.
-- ==
-- error: Recursive reference to "apply_n" must be a fully saturated application

def apply_n (k: i64) (f: i32 -> i32) (x: i32) : i32 =
  let again = apply_n
  in if k <= 0 then x else again (k - 1) f (f x)

entry main (x: i32) = apply_n 3 (+ 1) x
