-- Maps whose function produces arrays: thread-local arrays written out.
-- ==
-- entry: triple
-- input { [1i32, 2i32, 3i32] } output { [[1i32, 2i32, 2i32], [2i32, 3i32, 4i32], [3i32, 4i32, 6i32]] }
-- input { empty([0]i32) } output { empty([0][3]i32) }
entry triple (xs: []i32) : [][]i32 = map (\x -> [x, x + 1, x * 2]) xs

-- A thread-local iota and replicate.
-- ==
-- entry: ramps
-- input { [3i64, 5i64, 7i64] 4i64 } output { [[3i64, 4i64, 5i64, 6i64], [5i64, 6i64, 7i64, 8i64], [7i64, 8i64, 9i64, 10i64]] [[6i64, 6i64, 6i64, 6i64], [10i64, 10i64, 10i64, 10i64], [14i64, 14i64, 14i64, 14i64]] }
-- input { [3i64] 0i64 } output { empty([1][0]i64) empty([1][0]i64) }
entry ramps (xs: []i64) (k: i64) : ([][]i64, [][]i64) =
  unzip (map (\x -> (map (+ x) (iota k), replicate k (x * 2))) xs)

-- Each row normalised by its sum: a thread per row (the sum must not be
-- repeated per element), the row written out.
-- ==
-- entry: normalise
-- input { [[1f32, 3f32], [2f32, 2f32], [5f32, 15f32]] } output { [[0.25f32, 0.75f32], [0.5f32, 0.5f32], [0.25f32, 0.75f32]] }
-- input { empty([0][4]f32) } output { empty([0][4]f32) }
entry normalise (a: [][]f32) : [][]f32 = map (\r -> let s = f32.sum r in map (/ s) r) a

-- A thread reverses and rotates its row.
-- ==
-- entry: shuffle
-- input { [[1i32, 2i32, 3i32, 4i32], [5i32, 6i32, 7i32, 8i32]] } output { [[4i32, 3i32, 2i32, 1i32, 2i32, 3i32, 4i32, 1i32], [8i32, 7i32, 6i32, 5i32, 6i32, 7i32, 8i32, 5i32]] }
entry shuffle (a: [][]i32) : [][]i32 = map (\r -> concat (reverse r) (rotate 1 r)) a
