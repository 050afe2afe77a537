-- tabulate_2d builds a matrix from its indices.
-- ==
-- input { 2i64 3i64 } output { [[0i64, 1i64, 2i64], [10i64, 11i64, 12i64]] }
entry main (n: i64) (m: i64) : [][]i64 = tabulate_2d n m (\i j -> 10 * i + j)
