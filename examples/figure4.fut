-- The redomap paper's Figure 4: three reductions and two maps over arrays
-- derived from iota n. Fusion proceeds bottom up: the maps producing v and w
-- fuse horizontally (I), then with the max-reduction (II), then with the other
-- two reductions (III), and finally the producers of t, y, x and the iota fuse
-- in (IV), leaving one redomap whose only arrays in memory are v and w.
--
--   :plan main 2.0 3.0 4     (in the REPL, to see the fused plan)

def figure4 [n] (a: f32) (b: f32) (is: [n]f32) : (f32, f32, f32, [n]f32, [n]f32) =
  let x = map (* a) is
  let y = map (* b) x
  let t = map2 (+) x y
  let t0 = reduce_comm (+) 0.0 t
  let t1 = reduce_comm f32.min f32.inf x
  let t2 = reduce_comm f32.max 0.0 y
  let v = map (* a) x
  let w = map (* b) y
  in (t0, t1, t2, v, w)

-- The program as in the paper: its input is a size.
-- ==
-- entry: main
-- input { 2.0f32 3.0f32 4i64 }
-- output { 48.0f32 0.0f32 18.0f32 [0.0f32, 4.0f32, 8.0f32, 12.0f32] [0.0f32, 18.0f32, 36.0f32, 54.0f32] }
-- input { 1.0f32 1.0f32 0i64 }
-- output { 0.0f32 f32.inf 0.0f32 empty([0]f32) empty([0]f32) }
-- plan { redomap 1 scanomap 0 map 0 }
entry main (a: f32) (b: f32) (n: i64) : (f32, f32, f32, []f32, []f32) =
  figure4 a b (map f32.i64 (iota n))

-- The same computation over a given array (for `arepl bench`).
-- ==
-- entry: over
-- input { 2.0f32 3.0f32 [0.0f32, 1.0f32, 2.0f32, 3.0f32] }
-- output { 48.0f32 0.0f32 18.0f32 [0.0f32, 4.0f32, 8.0f32, 12.0f32] [0.0f32, 18.0f32, 36.0f32, 54.0f32] }
entry over (a: f32) (b: f32) (xs: []f32) : (f32, f32, f32, []f32, []f32) = figure4 a b xs
