-- zip of arrays of different lengths is an error.
-- ==
-- input { [1i32, 2i32] [3i32, 4i32] } output { [4i32, 6i32] }
-- input { [1i32, 2i32] [3i32] } error: (size|shape|length|dimension|match)
entry main (xs: []i32) (ys: []i32) : []i32 = map (\(a, b) -> a + b) (zip xs ys)
