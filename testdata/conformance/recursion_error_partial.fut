-- A recursive function with a higher-order parameter is applied to all its
-- parameters at every recursive call, here through a pipe.
-- ==
-- error: Recursive application of "apply_n" is not fully saturated: expected 3 arguments but got 2

def apply_n (k: i64) (f: i32 -> i32) (x: i32) : i32 =
  if k <= 0 then x else f x |> apply_n (k - 1) f

entry main (x: i32) = apply_n 3 (+ 1) x
