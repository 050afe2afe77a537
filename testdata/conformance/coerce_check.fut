-- A size coercion `e :> t` is checked at run time, with Futhark's message:
-- the value's shape and the type with its sizes evaluated.
-- ==
-- input { [5, 6, 7, 8] 2i64 } output { [[5, 6], [7, 8]] }
-- input { [5, 6, 7, 8, 9, 10] 3i64 }
-- error: Value of \(desugared\) shape \[6\] cannot match shape of type "\[4\]i32"\.
entry main (xs: []i32) (k: i64) : [][]i32 =
  let ys = xs :> [4]i32
  in unflatten (ys :> [2*k]i32) :> [2][k]i32
