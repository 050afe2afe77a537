-- Matrices with zero rows or zero columns.
-- ==
-- input { empty([0][3]i32) } output { 0i64 empty([0]i32) }
-- input { empty([2][0]i32) } output { 2i64 [0i32, 0i32] }
entry main (xss: [][]i32) : (i64, []i32) = (length xss, map (reduce (+) 0) xss)
