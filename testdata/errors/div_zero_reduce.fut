-- Division by zero in the mapped function of a reduction.
-- ==
-- input { [1i64, 2i64] } output { 150i64 }
-- input { [3i64, 0i64] } error: division by zero
entry main (xs: []i64) : i64 = reduce (+) 0 (map (100 /) xs)
