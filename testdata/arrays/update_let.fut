-- In-place update with `let xs[i] = v`, on a fresh array.
-- ==
-- input { [1i32, 2i32, 3i32] 0i64 } output { [99i32, 3i32, 4i32] }
-- input { [1i32, 2i32, 3i32] 2i64 } output { [2i32, 3i32, 99i32] }
-- input { [1i32, 2i32, 3i32] 3i64 } error: Index \[.*\] out of bounds
entry main (xs: []i32) (i: i64) : []i32 =
  let ys = map (+1) xs
  let ys[i] = 99
  in ys
