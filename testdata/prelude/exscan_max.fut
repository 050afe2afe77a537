-- exscan with max: the largest element strictly before each position.
-- ==
-- input { [3i64, 1i64, 4i64, 1i64, 5i64] } output { [-9223372036854775808i64, 3i64, 3i64, 4i64, 4i64] }
entry main (xs: []i64) : []i64 = exscan i64.max i64.lowest xs
