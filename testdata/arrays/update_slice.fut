-- In-place update of a slice.
-- ==
-- input { [0i32, 0i32, 0i32, 0i32] [5i32, 6i32] } output { [0i32, 5i32, 6i32, 0i32] }
entry main (xs: *[]i32) (ys: []i32) : []i32 =
  let xs[1:3] = ys
  in xs
