-- A recursive function may take a function, when every recursive call
-- passes it on unchanged and applies the function to all its parameters.
-- ==
-- input { 5i64 3i32 } output { 96i32 }
-- input { 0i64 3i32 } output { 3i32 }

def apply_n (k: i64) (f: i32 -> i32) (x: i32) : i32 =
  if k <= 0 then x else apply_n (k - 1) f (f x)

entry main (k: i64) (x: i32) = apply_n k (* 2) x
