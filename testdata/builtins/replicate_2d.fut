-- replicate of a replicate gives a matrix.
-- ==
-- input { 2i64 3i64 true } output { [[true, true, true], [true, true, true]] }
-- input { 0i64 3i64 false } output { empty([0][3]bool) }
entry main (n: i64) (m: i64) (b: bool) : [][]bool = replicate n (replicate m b)
