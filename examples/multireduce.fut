-- Multireduce and multiscan (multireduce thesis, section 1.2): for every
-- label, the reduction of the values with that label (reduce_by_index with
-- any associative and commutative operator, tuples included), and for every
-- element, the reduction of the earlier values with its label (multiscan,
-- arepl's extension beyond Futhark).

-- Per label: the count, the sum and the maximum, in one pass.
-- ==
-- entry: stats
-- input { 3i64 [0i64, 2i64, 0i64, 2i64, 2i64] [5i32, 1i32, -3i32, 8i32, 2i32] }
-- output { [2i32, 0i32, 3i32] [2i32, 0i32, 11i32] [5i32, -2147483648i32, 8i32] }
entry stats (k: i64) (labels: []i64) (vs: []i32) : ([]i32, []i32, []i32) =
  let op (c1: i32, s1: i32, m1: i32) (c2: i32, s2: i32, m2: i32) = (c1 + c2, s1 + s2, i32.max m1 m2)
  let ne = (0, 0, i32.lowest)
  in unzip3 (reduce_by_index (replicate k ne) op ne labels (map (\v -> (1, v, v)) vs))

-- The inclusive per-label prefix sums.
-- ==
-- entry: prefix
-- input { 2i64 [0i64, 1i64, 0i64, 1i64, 0i64] [1i32, 10i32, 2i32, 20i32, 3i32] }
-- output { [1i32, 10i32, 3i32, 30i32, 6i32] }
entry prefix (k: i64) (labels: []i64) (vs: []i32) : []i32 = multiscan (+) 0 k labels vs

-- Scatter is the multireduce whose operator keeps the later value: here
-- each value goes to its index, and out-of-range indices are dropped.
-- ==
-- entry: place
-- input { 4i64 [3i64, 0i64, 7i64] [1.5f64, 2.5f64, 9.0f64] } output { [2.5f64, 0.0f64, 0.0f64, 1.5f64] }
entry place (k: i64) (is: []i64) (vs: []f64) : []f64 = scatter (replicate k 0.0) is vs
