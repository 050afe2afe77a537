-- replicate with a negative count is an error.
-- ==
-- input { -1i64 } error: (negative|invalid|replicate)
-- input { 2i64 } output { [[7i32, 7i32], [7i32, 7i32]] }
entry main (n: i64) : [][]i32 = replicate n (replicate n 7)
