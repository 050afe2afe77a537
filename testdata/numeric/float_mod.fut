-- Float % floors, as Futhark's interpreter does: x - y * floor(x / y), with
-- the sign of the divisor (-5.5 % 2.0 is 0.5, not fmod's -1.5); a zero or
-- infinite divisor or an infinite dividend gives nan. The operands are
-- arrays so that the GPU computes % in a kernel (map2) and in a fused
-- reduction (redomap), not on the host.

-- ==
-- entry: mod_f64
-- input { [-5.5f64, 5.5f64, -5.5f64, 5.5f64, 7.25f64, -7.25f64, -4.0f64, 4.0f64, 0.1f64, -0.1f64]
--         [2.0f64, 2.0f64, -2.0f64, -2.0f64, -0.5f64, 0.75f64, 2.0f64, -2.0f64, 0.03f64, 0.03f64] }
-- output { [0.5f64, 1.5f64, -1.5f64, -0.5f64, -0.25f64, 0.25f64, 0.0f64, 0.0f64, 0.010000000000000009f64, 0.019999999999999997f64] }
-- input { [5.0f64, -5.0f64, 5.0f64, f64.inf, -f64.inf, f64.nan, 1.0f64]
--         [0.0f64, 0.0f64, f64.inf, 2.0f64, -2.0f64, 1.0f64, f64.nan] }
-- output { [f64.nan, f64.nan, f64.nan, f64.nan, f64.nan, f64.nan, f64.nan] }
entry mod_f64 (xs: []f64) (ys: []f64) : []f64 = map2 (%) xs ys

-- ==
-- entry: mod_f32
-- input { [-5.5f32, 5.5f32, -5.5f32, 5.5f32, 7.25f32, -3.0f32, 5.0f32, f32.inf]
--         [2.0f32, 2.0f32, -2.0f32, -2.0f32, -0.5f32, 7.0f32, 0.0f32, 1.0f32] }
-- output { [0.5f32, 1.5f32, -1.5f32, -0.5f32, -0.25f32, 4.0f32, f32.nan, f32.nan] }
entry mod_f32 (xs: []f32) (ys: []f32) : []f32 = map2 (%) xs ys

-- ==
-- entry: mod_sum
-- input { [-5.5f64, -1.25f64, -7.0f64, 3.5f64] 2.0f64 } output { 3.75f64 }
-- input { [-5.5f64, -1.25f64, -7.0f64, 3.5f64] -2.0f64 } output { -4.25f64 }
entry mod_sum (xs: []f64) (y: f64) : f64 = f64.sum (map (\x -> x % y) xs)
