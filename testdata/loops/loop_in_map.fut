-- A loop inside the function of a map.
-- ==
-- input { [0i32, 1i32, 4i32, 5i32] } output { [0i32, 0i32, 6i32, 10i32] }
entry main (xs: []i32) : []i32 = map (\x -> loop a = 0 for i < x do a + i) xs
