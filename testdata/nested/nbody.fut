-- The n-body shape: each body sums an interaction with every other body
-- (an inner redomap over invariant arrays, run sequentially per thread).
-- ==
-- entry: main
-- input { [0f32, 1f32, 3f32, 7f32] [1f32, 2f32, 1f32, 0.5f32] } output { [1.1173172f32, -0.2639529f32, -0.52081805f32, -0.13718684f32] }
-- input { [2f32] [1f32] } output { [0.0f32] }
-- input { empty([0]f32) empty([0]f32) } output { empty([0]f32) }
entry main (xs: []f32) (ms: []f32) : []f32 =
  map (\x -> f32.sum (map2 (\y m -> m * (y - x) / (f32.abs (y - x) * (y - x) * (y - x) + 1f32)) xs ms)) xs

-- Three components: positions as three arrays, accelerations as three.
-- ==
-- entry: three
-- input { [0f32, 1f32, 2f32] [0f32, 1f32, 0f32] [1f32, 0f32, 0f32] [1f32, 2f32, 3f32] } output { [0.918034f32, 0.8612629f32, -0.88018656f32] [0.38298368f32, -1.2442466f32, 0.70183647f32] [-0.6505089f32, 0.19149184f32, 8.917505e-2f32] }
-- input { empty([0]f32) empty([0]f32) empty([0]f32) empty([0]f32) } output { empty([0]f32) empty([0]f32) empty([0]f32) }
entry three (xs: []f32) (ys: []f32) (zs: []f32) (ms: []f32) : ([]f32, []f32, []f32) =
  unzip3 (map3 (\x y z ->
    let (ax, ay, az) =
      reduce (\(a, b, c) (d, e, f) -> (a + d, b + e, c + f)) (0f32, 0f32, 0f32)
        (map2 (\(x2, y2) (z2, m) ->
                 let dx = x2 - x
                 let dy = y2 - y
                 let dz = z2 - z
                 let r2 = dx * dx + dy * dy + dz * dz + 0.01f32
                 let s = m / (r2 * f32.sqrt r2)
                 in (dx * s, dy * s, dz * s)) (zip xs ys) (zip zs ms))
    in (ax, ay, az)) xs ys zs)

-- A larger checksum.
-- ==
-- entry: big
-- input { 1000i64 } output { 182046.31f32 }
entry big (n: i64) : f32 =
  let xs = map (\i -> f32.i64 (i % 97) * 0.5f32) (iota n)
  let ms = map (\i -> f32.i64 (i % 5) + 1f32) (iota n)
  in f32.sum (map (\x -> f32.sum (map2 (\y m -> m / ((y - x) * (y - x) + 1f32)) xs ms)) xs)
