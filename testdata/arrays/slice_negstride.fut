-- Slices with a negative stride walk backwards; xs[::-1] reverses.
-- ==
-- input { [0i32, 1i32, 2i32, 3i32, 4i32, 5i32] } output { [5i32, 4i32, 3i32, 2i32, 1i32, 0i32] [4i32, 3i32, 2i32] [5i32, 3i32, 1i32] [3i32, 2i32, 1i32, 0i32] }
entry main (xs: []i32) : ([]i32, []i32, []i32, []i32) = (xs[::-1], xs[4:1:-1], xs[::-2], xs[3::-1])
