-- Several sizes bound by one let, from both components of a tuple, and a
-- size of an inner dimension.
-- ==
-- input { [1,-2,3,4] [[1,2,3],[4,5,6]] } output { 3i64 1i64 3i64 }
entry main (xs: []i32) (xss: [][]i32) =
  let [p][q] (a: [p]i32, _b: [q]i32) = partition (>0) xs
  let [r][c] (_m: [r][c]i32) = xss
  in (p, q, c)
