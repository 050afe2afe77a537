-- Size parameters in entry points: several, shared between parameters and
-- the result; an input whose sizes disagree is a run-time error.
-- ==
-- input { [[1, 2], [3, 4], [5, 6]] [10, 20] } output { [50, 110, 170] 3i64 2i64 }
-- input { [[1, 2], [3, 4]] [10, 20, 30] } error: .
entry main [n][m] (a: [n][m]i32) (v: [m]i32) : ([n]i32, i64, i64) =
  (map (\row -> i32.sum (map2 (*) row v)) a, n, m)
