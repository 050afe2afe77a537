-- One k-means step: assignment by an inner arg-min over the centres (a
-- redomap inside a map), then counts and coordinate sums with hist.
def dist [d] (p: [d]f32) (c: [d]f32) : f32 = f32.sum (map2 (\x y -> (x - y) * (x - y)) p c)

-- ==
-- entry: main
-- input { [[0f32, 0f32], [1f32, 0f32], [9f32, 9f32], [10f32, 8f32], [0f32, 1f32]] [[0f32, 0f32], [10f32, 10f32]] } output { [0i64, 0i64, 1i64, 1i64, 0i64] [3i32, 2i32] [1.0f32, 19.0f32] }
-- input { [[5f32, 5f32]] [[0f32, 0f32], [10f32, 10f32], [5f32, 6f32]] } output { [2i64] [0i32, 0i32, 1i32] [0.0f32, 0.0f32, 5.0f32] }
-- input { empty([0][2]f32) [[0f32, 0f32]] } output { empty([0]i64) [0i32] [0.0f32] }
entry main [n][d][k] (ps: [n][d]f32) (cs: [k][d]f32) : ([n]i64, [k]i32, [k]f32) =
  let assign = map (\p ->
      let (_, best) = reduce (\(d1, i1) (d2, i2) -> if d2 < d1 || d2 == d1 && i2 < i1 then (d2, i2) else (d1, i1))
                             (f32.inf, -1i64) (map2 (\c i -> (dist p c, i)) cs (iota k))
      in best) ps
  let counts = hist (+) 0 k assign (replicate n 1i32)
  let xsum = hist (+) 0f32 k assign (map (\p -> p[0]) ps)
  in (assign, counts, xsum)
