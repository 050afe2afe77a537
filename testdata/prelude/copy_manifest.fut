-- copy and manifest return their argument.
-- ==
-- input { [1i32, 2i32] } output { [1i32, 2i32] [2i32, 3i32] }
entry main (xs: []i32) : ([]i32, []i32) = (copy xs, manifest (map (+ 1) xs))
