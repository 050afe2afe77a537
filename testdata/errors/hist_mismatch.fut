-- hist needs as many values as indices.
-- ==
-- input { [0i64, 1i64, 1i64] [5i32] } error: (size|shape|length|dimension|match)
entry main (is: []i64) (vs: []i32) : []i32 = hist (+) 0 2 is vs
