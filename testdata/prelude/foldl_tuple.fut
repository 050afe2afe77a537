-- foldl with a tuple accumulator: the sum and the count of elements.
-- ==
-- input { [1.5f64, 2.5f64] } output { 4.0f64 2i64 }
entry main (xs: []f64) : (f64, i64) = foldl (\(s, n) x -> (s + x, n + 1)) (0, 0) xs
