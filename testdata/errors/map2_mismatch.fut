-- map2 over arrays of different lengths is an error.
-- ==
-- input { [1i32, 2i32, 3i32] empty([0]i32) } error: (size|shape|length|dimension|match)
entry main (xs: []i32) (ys: []i32) : []i32 = map2 (*) xs ys
