-- RedomapNT (redomap paper, benchmark 8): the structure of Figure 4 with
-- heavier mapped functions (division, exp, sqrt). Fusion turns the whole
-- program into one redomap with three reductions and two map-out arrays,
-- without duplicating any computation.

-- ==
-- input { 2.0f32 0.5f32 [0.0f32, 1.0f32, 2.0f32, -4.0f32] }
-- output { 1.9847876f32 -1.0f32 0.8243606f32 [2.0f32, 3.0f32, 4.0f32, -2.0f32]
--          [0.45397154f32, 0.40354201f32, 0.36866528f32, 0.27534766f32] }
-- input { 1.0f32 1.0f32 empty([0]f32) }
-- output { 0.0f32 f32.inf 0.0f32 empty([0]f32) empty([0]f32) }
-- plan { redomap 1 map 0 scanomap 0 }
entry main (a: f32) (b: f32) (xs: []f32) : (f32, f32, f32, []f32, []f32) =
  let x = map (\e -> e / a + 1.0) xs
  let y = map (\e -> f32.exp (e * b) / (1.0 + e * e)) x
  let t = map2 (\p q -> p / (1.0 + q)) x y
  let t0 = reduce_comm (+) 0.0 t
  let t1 = reduce_comm f32.min f32.inf x
  let t2 = reduce_comm f32.max 0.0 y
  let v = map (* a) x
  let w = map (\e -> f32.sqrt e * b) y
  in (t0, t1, t2, v, w)
