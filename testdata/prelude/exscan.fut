-- exscan is the exclusive scan: the neutral element first.
-- ==
-- input { [1i32, 2i32, 3i32, 4i32] } output { [0i32, 1i32, 3i32, 6i32] }
-- input { empty([0]i32) } output { empty([0]i32) }
entry main (xs: []i32) : []i32 = exscan (+) 0 xs
