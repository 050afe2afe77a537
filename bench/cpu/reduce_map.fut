-- A map feeding a reduction: one redomap when fused, an intermediate array when not.
-- ==
-- input { [1, 2, 3] } output { 15 }
entry main (xs: []i32) : i32 = reduce (+) 0 (map (\x -> x * 2 + 1) xs)
