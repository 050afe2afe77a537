-- Empty arrays keep their inner dimensions through every array function.
-- ==
-- entry: flat
-- input { empty([0][3]i32) } output { empty([0]i32) }
-- input { empty([2][0]i32) } output { empty([0]i32) }
entry flat (xss: [][]i32) : []i32 = flatten xss

-- ==
-- entry: trans
-- input { empty([2][0]i32) } output { empty([0][2]i32) }
-- input { empty([0][3]i32) } output { empty([3][0]i32) }
entry trans (xss: [][]i32) : [][]i32 = transpose xss

-- ==
-- entry: rows
-- input { empty([0][3]i32) } output { empty([0][3]i32) empty([0][3]i32) empty([0][3]i32) }
entry rows (xss: [][]i32) : ([][]i32, [][]i32, [][]i32) =
  (map (map (+1)) xss, reverse xss, xss ++ xss)

-- ==
-- entry: build
-- input { 0i64 4i64 } output { empty([0][4]i64) empty([0][4]i64) }
entry build (n: i64) (m: i64) : ([][]i64, [][]i64) =
  (replicate n (iota m), map (\i -> map (+ i) (iota m)) (iota n))
