-- A coercion inside a map is checked for every row.
-- ==
-- input { [[1, 2], [3, 4]] } output { [3, 7] }
-- input { [[1, 2, 3], [4, 5, 6]] } error: cannot match shape of type "\[2\]i32"
entry main (m: [][]i32) : []i32 =
  map (\r -> let p = r :> [2]i32 in p[0] + p[1]) m
