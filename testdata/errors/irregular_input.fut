-- An irregular array literal built at run time is an error.
-- ==
-- input { [1i32, 2i32] [3i32, 4i32] } output { [[1i32, 2i32], [3i32, 4i32]] }
-- input { [1i32, 2i32] [3i32] } error: (irregular|size|shape|match)
entry main (xs: []i32) (ys: []i32) : [][]i32 = [xs, ys]
