-- An assertion inside a map.
-- ==
-- input { [1i32, 2i32] } output { [1i32, 2i32] }
-- input { [1i32, -2i32] } error: Assertion is false
entry main (xs: []i32) : []i32 = map (\x -> assert (x >= 0) x) xs
