-- Histograms (multireduce thesis): a histogram is a multireduce whose values
-- are all one and whose operator is addition. Indices outside [0, k) are
-- ignored, as in Futhark.

-- Counts of precomputed bucket indices.
-- ==
-- entry: counts
-- input { 4i64 [0i64, 1i64, 1i64, 3i64, 3i64, 3i64, 9i64, -1i64] } output { [1i32, 2i32, 0i32, 3i32] }
-- input { 2i64 empty([0]i64) } output { [0i32, 0i32] }
entry counts (k: i64) (is: []i64) : []i32 = hist (+) 0 k is (map (\_ -> 1) is)

-- Weighted histogram: f32 values added into their buckets.
-- ==
-- entry: weighted
-- input { 3i64 [2i64, 0i64, 2i64] [0.5f32, 1.0f32, 2.0f32] } output { [1.0f32, 0.0f32, 2.5f32] }
entry weighted (k: i64) (is: []i64) (ws: []f32) : []f32 = hist (+) 0.0 k is ws

-- Buckets computed from the data: k equal-width bins over [lo, hi).
-- ==
-- entry: binned
-- input { 4i64 0.0f32 1.0f32 [0.1f32, 0.3f32, 0.35f32, 0.99f32, 1.5f32, -0.2f32] } output { [1i32, 2i32, 0i32, 1i32] }
entry binned (k: i64) (lo: f32) (hi: f32) (xs: []f32) : []i32 =
  let bucket (x: f32) : i64 =
    if x < lo || x >= hi then -1 else i64.f32 ((x - lo) / (hi - lo) * f32.i64 k)
  in hist (+) 0 k (map bucket xs) (map (\_ -> 1) xs)
