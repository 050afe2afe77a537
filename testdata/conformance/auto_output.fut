-- `auto output` compares with the reference implementation: the CPU
-- interpreter without fusion (Futhark's sequential backend plays that
-- part for futhark test), here on generated inputs.
-- ==
-- random input { [1000]f32 [1000]f32 } auto output
-- random input { [0]f32 [0]f32 } auto output
-- input { [1f32, 2f32] [3f32, 4f32] } auto output
entry main (xs: []f32) (ys: []f32) : (f32, []f32) =
  let zs = map2 (*) xs ys
  in (f32.sum zs, scan (+) 0 zs)
