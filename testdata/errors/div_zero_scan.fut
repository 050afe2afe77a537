-- Division by zero in the function mapped before a scan.
-- ==
-- input { [100i32, 5i32] } output { [1i32, 21i32] }
-- input { [100i32, 0i32] } error: division by zero
entry main (xs: []i32) : []i32 = scan (+) 0 (map (\x -> 100 / x) xs)
