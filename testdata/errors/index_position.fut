-- A run-time error names the line and column of the failing expression.
-- ==
-- input { [1i32] 5i64 } error: :10:[0-9]+:.*out of bounds
entry main (xs: []i32) (i: i64) : i32 =
  let a = 1
  let b = 2
  let c = 3
  let d = 4
  in a + b + c + d
     + xs[i]
