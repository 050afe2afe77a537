-- A map feeding a scan: one scanomap when fused, two passes over memory when not.
-- ==
-- input { [1, 2, 3] } output { [3, 8, 15] }
entry main (xs: []i32) : []i32 = scan (+) 0 (map (\x -> x * 2 + 1) xs)
