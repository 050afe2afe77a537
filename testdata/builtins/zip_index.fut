-- zip with indices, then a map using both.
-- ==
-- input { [10i32, 20i32, 30i32] } output { [10i32, 21i32, 32i32] }
entry main (xs: []i32) : []i32 = map (\(x, i) -> x + i32.i64 i) (zip xs (indices xs))
