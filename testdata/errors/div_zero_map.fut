-- Division by zero inside a map stops the whole computation.
-- ==
-- input { [1i32, 2i32, 5i32] } output { [10i32, 5i32, 2i32] }
-- input { [1i32, 0i32, 5i32] } error: division by zero
entry main (xs: []i32) : []i32 = map (\x -> 10 / x) xs
