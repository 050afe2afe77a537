-- map2 over matrices whose rows differ in length is an error.
-- ==
-- input { [[1i32, 2i32]] [[3i32, 4i32, 5i32]] } error: (size|shape|length|dimension|match)
entry main (a: [][]i32) (b: [][]i32) : [][]i32 = map2 (map2 (+)) a b
