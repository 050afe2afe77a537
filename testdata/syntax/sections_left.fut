-- Left sections (10-) and (2**).
-- ==
-- input { [1i32, 4i32, 12i32] } output { [9i32, 6i32, -2i32] [2i32, 16i32, 4096i32] }
entry main (xs: []i32) : ([]i32, []i32) = (map (10-) xs, map (2**) xs)
