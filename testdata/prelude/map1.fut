-- map1 is map.
-- ==
-- input { [1i32, 2i32] } output { [2i32, 4i32] }
entry main (xs: []i32) : []i32 = map1 (* 2) xs
