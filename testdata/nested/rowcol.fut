-- Row and column reductions and scans with map bodies, at segment lengths
-- around the warp size and beyond (the statements are segmented
-- reductions and scans; their strategies depend on the segment length).
def mat (n: i64) (m: i64) : [n][m]i32 =
  map (\i -> map (\j -> i32.i64 ((i * 7 + j * 3) % 11) - 5) (iota m)) (iota n)

-- Row sums, column sums, row scans and column scans of an n x m matrix.
-- ==
-- entry: main
-- input { 3i64 1i64 } output { 30i64 -7i64 0i64 -19i64 -15i64 }
-- input { 3i64 2i64 } output { 57i64 4i64 -3i64 -20i64 -18i64 }
-- input { 5i64 3i64 } output { 141i64 23i64 42i64 -45i64 33i64 }
-- input { 4i64 31i64 } output { 1131i64 130i64 105i64 -304i64 96i64 }
-- input { 4i64 32i64 } output { 1153i64 130i64 114i64 -321i64 99i64 }
-- input { 4i64 33i64 } output { 1188i64 132i64 114i64 -330i64 99i64 }
-- input { 3i64 1000i64 } output { 26995i64 3006i64 0i64 -6002i64 0i64 }
-- input { 1000i64 3i64 } output { 27000i64 2988i64 -39i64 -1501500i64 -18i64 }
-- input { 0i64 5i64 } output { 0i64 0i64 0i64 0i64 0i64 }
-- input { 5i64 0i64 } output { 0i64 0i64 0i64 0i64 0i64 }
entry main (n: i64) (m: i64) : (i64, i64, i64, i64, i64) =
  let a = mat n m
  let rows = map (\r -> i32.sum (map (\x -> x * x - 1) r)) a
  let cols = map (\c -> i32.sum (map (\x -> 2 * x + 1) c)) (transpose a)
  let rscan = map (\r -> scan (+) 0 (map (\x -> x * 3) r)) a
  let cscan = map (\c -> scan (+) 0 (map (\x -> x - 1) c)) (transpose a)
  let w = map (\r -> i64.sum (map2 (\i x -> i64.i32 x * (i % 7)) (indices r) r)) rscan
  in (i64.sum (map i64.i32 rows), i64.sum (map i64.i32 cols), i64.sum w,
      i64.sum (map (\c -> i64.sum (map i64.i32 c)) cscan), i64.i32 (i32.sum (flatten rscan)))

-- Segments of 2^20 elements: rows of a 2 x 2^20 matrix.
-- ==
-- entry: long
-- input { 2i64 1048576i64 } output { 18874377i64 -24i64 }
entry long (n: i64) (m: i64) : (i64, i64) =
  let a = mat n m
  let rows = map (\r -> i32.sum (map (\x -> x * x - 1) r)) a
  let rscan = map (\r -> scan (+) 0 (map (\x -> x * 3) r)) a
  in (i64.sum (map i64.i32 rows), i64.sum (map (\r -> i64.i32 r[m - 1] + i64.i32 r[m / 2]) rscan))

-- Columns of 2^20 elements: a 2^20 x 2 matrix.
-- ==
-- entry: longcol
-- input { 1048576i64 2i64 } output { 2097138i64 -2796218i64 }
entry longcol (n: i64) (m: i64) : (i64, i64) =
  -- Generated flat: a million two-element rows are slow to build row by row.
  let a : [n][m]i32 = unflatten (map (\k -> i32.i64 (((k / m) * 7 + (k % m) * 3) % 11) - 5) (iota (n * m)))
  let cols = map (\c -> i32.sum (map (\x -> 2 * x + 1) c)) (transpose a)
  let cscan = map (\c -> scan (+) 0 (map (\x -> x - 1) c)) (transpose a)
  in (i64.sum (map i64.i32 cols), i64.sum (map (\c -> i64.i32 c[n - 1] + i64.i32 c[n / 3]) cscan))

-- The column sums themselves, f32.
-- ==
-- entry: colsum
-- input { [[1f32, 2f32, 3f32], [4f32, 5f32, 6f32]] } output { [10.0f32, 14.0f32, 18.0f32] }
-- input { empty([0][3]f32) } output { [0.0f32, 0.0f32, 0.0f32] }
-- input { empty([3][0]f32) } output { empty([0]f32) }
entry colsum (a: [][]f32) : []f32 = map (\c -> f32.sum (map (* 2f32) c)) (transpose a)
