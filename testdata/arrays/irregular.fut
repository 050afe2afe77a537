-- An array literal whose rows differ in length is a run-time error.
-- ==
-- input { 2i64 } output { [[0i64, 1i64], [0i64, 1i64]] }
-- input { 3i64 } error: (irregular|size|shape|match)
entry main (n: i64) : [][]i64 = [iota 2, iota n]
