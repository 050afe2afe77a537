-- A recursive call must pass a higher-order argument unchanged.
-- ==
-- error: Higher-order argument in recursive application of "apply_n" must be passed unchanged

def apply_n (k: i64) (f: i32 -> i32) (x: i32) : i32 =
  if k <= 0 then x else apply_n (k - 1) (\y -> f (f y)) x

entry main (x: i32) = apply_n 3 (+ 1) x
