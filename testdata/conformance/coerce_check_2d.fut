-- A coercion of a matrix to sizes held in variables: both dimensions are
-- checked and named in the message.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] 2i64 3i64 } output { 21 }
-- input { [[1, 2, 3], [4, 5, 6]] 3i64 2i64 }
-- error: shape \[2\]\[3\] cannot match shape of type "\[3\]\[2\]i32"
entry main (m: [][]i32) (r: i64) (c: i64) : i32 =
  let m' = m :> [r][c]i32
  in i32.sum (flatten m')
