-- An out-of-bounds index in a called function.
def get (xs: []f32) (i: i64) : f32 = xs[i]

-- ==
-- input { [1.5f32] 0i64 } output { 3.0f32 }
-- input { [1.5f32] 1i64 } error: Index \[.*\] out of bounds
entry main (xs: []f32) (i: i64) : f32 = get xs i * 2.0
