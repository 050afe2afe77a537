-- An array too large to allocate is a positioned run-time error, not a crash.
-- ==
-- input { 4611686018427387904i64 } error: (memory|too large|allocat)
-- input { 3i64 } output { [1i64, 2i64, 3i64] }
entry main (n: i64) : []i64 = map (+1) (iota n)
