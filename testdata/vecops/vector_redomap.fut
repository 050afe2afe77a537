-- Reductions and scans with vector operators whose rows are made by a map
-- fused into them (redomaps, scanomaps), neutral elements written as a map
-- that ignores its argument (lang/ad's zeros) or as a literal, and a map2
-- that takes the rows in the other order. The GPU backend runs the map as
-- a segmented map into an [n][m] array and the reduction or scan as a
-- column kernel (eval/gpu/vecsplit.go, vecop.go).
-- ==
-- entry: scaled_sum
-- input { [[1i32, 2i32], [3i32, 4i32], [5i32, 6i32]] [1i32, 10i32, 100i32] } output { [531i32, 642i32] }
-- input { [[7i32, -1i32, 3i32]] [2i32] } output { [14i32, -2i32, 6i32] }
-- input { empty([0][3]i32) empty([0]i32) } output { [0i32, 0i32, 0i32] }
-- input { empty([2][0]i32) [1i32, 2i32] } output { empty([0]i32) }
entry scaled_sum [n][m] (xss: [n][m]i32) (ks: [n]i32) : [m]i32 =
  reduce (map2 (+)) (replicate m 0) (map2 (\xs k -> map (* k) xs) xss ks)

-- A one-hot row per element, summed: a histogram of i % m written as a
-- vector reduction (the shape of a gather's adjoint).
-- ==
-- entry: onehot
-- input { 3i64 [1f64, 2f64, 4f64, 8f64, 16f64] } output { [9f64, 18f64, 4f64] }
-- input { 1i64 [1f64, 2f64] } output { [3f64] }
-- input { 2i64 empty([0]f64) } output { [0f64, 0f64] }
entry onehot (m: i64) (xs: []f64) : [m]f64 =
  reduce (map2 (+)) (replicate m 0)
         (map (\i -> copy (replicate m 0) with [i % m] = xs[i]) (indices xs))

-- f32.max over rows, the neutral element a map that ignores its argument.
-- ==
-- entry: max_f32
-- input { [[1f32, -2f32], [-3f32, 4f32], [0.5f32, -6f32]] } output { [1f32, 4f32] }
-- input { empty([0][2]f32) } output { [-f32.inf, -f32.inf] }
entry max_f32 [m] (xss: [][m]f32) : [m]f32 =
  reduce (map2 f32.max) (map (\_ -> f32.lowest) (iota m)) xss

-- The largest squared distance of each column from a per-row offset: the
-- map that makes the rows fused into the f32.max reduction (a redomap).
-- ==
-- entry: max_sq
-- input { [[1f32, -2f32], [-3f32, 1f32]] [0f32, 1f32] } output { [16f32, 4f32] }
-- input { empty([0][1]f32) empty([0]f32) } output { [-f32.inf] }
entry max_sq [n][m] (xss: [n][m]f32) (ds: [n]f32) : [m]f32 =
  reduce (map2 f32.max) (replicate m (-f32.inf)) (map2 (\xs d -> map (\x -> (x - d) * (x - d)) xs) xss ds)

-- A neutral element written as a literal, as in lang/ad's tests.
-- ==
-- entry: lit_sum
-- input { [[1f64, 2f64], [3f64, 4f64], [5f64, 6f64]] } output { [9f64, 12f64] }
-- input { empty([0][2]f64) } output { [0f64, 0f64] }
entry lit_sum (xss: [][2]f64) : [2]f64 = reduce (map2 (+)) [0, 0] xss

-- A scan with a vector operator over rows a fused map makes (a scanomap),
-- and one whose map2 takes the rows in the other order.
-- ==
-- entry: scaled_scan
-- input { [[1i32, 2i32], [3i32, 4i32], [5i32, 6i32]] [1i32, 10i32, 100i32] }
-- output { [[1i32, 2i32], [31i32, 42i32], [531i32, 642i32]] }
-- input { empty([0][2]i32) empty([0]i32) } output { empty([0][2]i32) }
entry scaled_scan [n][m] (xss: [n][m]i32) (ks: [n]i32) : [n][m]i32 =
  scan (map2 (+)) (replicate m 0) (map2 (\xs k -> map (* k) xs) xss ks)

-- ==
-- entry: flipped_products
-- input { [[1i32, 2i32], [3i32, 4i32], [5i32, 6i32]] } output { [[1i32, 2i32], [3i32, 8i32], [15i32, 48i32]] }
entry flipped_products [m] (xss: [][m]i32) : [][m]i32 =
  scan (\x y -> map2 (*) y x) (replicate m 1) xss
