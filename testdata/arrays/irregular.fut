-- An array literal whose rows differ in length is a run-time error. (With
-- `iota n` the row sizes 2 and n are a static error, as in Futhark; a
-- filter's result has a size arepl leaves to run time.)
-- ==
-- input { 2i64 } output { [[0i64, 1i64], [0i64, 1i64]] }
-- input { 3i64 } error: (irregular|size|shape|match)
entry main (n: i64) : [][]i64 = [iota 2, filter (>= 0) (iota n)]
