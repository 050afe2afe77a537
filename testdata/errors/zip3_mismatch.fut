-- zip3 of arrays of different lengths is an error.
-- ==
-- input { [1i32] [2i32] [3i32] } output { [6i32] }
-- input { [1i32] [2i32, 3i32] [3i32] } error: (size|shape|length|dimension|match)
entry main (xs: []i32) (ys: []i32) (zs: []i32) : []i32 = map (\(a, b, c) -> a + b + c) (zip3 xs ys zs)
