-- scatter needs as many values as indices.
-- ==
-- input { [0i32, 0i32] [0i64, 1i64] [5i32] } error: (size|shape|length|dimension|match)
entry main (dest: *[]i32) (is: []i64) (vs: []i32) : []i32 = scatter dest is vs
