-- hist with a tuple operator: per bucket, the smallest value and its position
-- (ties go to the smaller position, so the operator is commutative).
def argmin (a: i32, i: i64) (b: i32, j: i64) : (i32, i64) =
  if a < b then (a, i) else if b < a then (b, j) else if i < j then (a, i) else (b, j)

-- ==
-- input { 3i64 [0i64, 1i64, 0i64, 2i64, 1i64, 5i64] [4i32, 9i32, 2i32, 7i32, 9i32, -100i32] } output { [2i32, 9i32, 7i32] [2i64, 1i64, 3i64] }
-- input { 2i64 [1i64] [3i32] } output { [2147483647i32, 3i32] [-1i64, 0i64] }
entry main (k: i64) (is: []i64) (vs: []i32) : ([]i32, []i64) =
  unzip (hist argmin (i32.highest, -1) k is (zip vs (indices vs)))
