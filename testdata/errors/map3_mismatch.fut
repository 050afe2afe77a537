-- map3 over arrays of different lengths is an error.
-- ==
-- input { [1i32] [2i32] [3i32, 4i32] } error: (size|shape|length|dimension|match)
entry main (xs: []i32) (ys: []i32) (zs: []i32) : []i32 = map3 (\a b c -> a + b + c) xs ys zs
