-- Slices with a positive stride.
-- ==
-- input { [0i32, 1i32, 2i32, 3i32, 4i32, 5i32] } output { [0i32, 2i32, 4i32] [1i32, 3i32, 5i32] [0i32, 3i32] [1i32, 4i32] }
entry main (xs: []i32) : ([]i32, []i32, []i32, []i32) = (xs[::2], xs[1::2], xs[0:5:3], xs[1:6:3])
