-- Slices with an omitted start or end.
-- ==
-- input { [0i32, 1i32, 2i32, 3i32, 4i32] } output { [0i32, 1i32] [2i32, 3i32, 4i32] [0i32, 1i32, 2i32, 3i32, 4i32] }
entry main (xs: []i32) : ([]i32, []i32, []i32) = (xs[:2], xs[2:], xs[:])
