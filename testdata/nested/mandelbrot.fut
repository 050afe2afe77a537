-- Mandelbrot: a while loop in the innermost body of a 2-D map over iota.
def escape (limit: i32) (cr: f32) (ci: f32) : i32 =
  let (_, _, n) =
    loop (zr, zi, n) = (0f32, 0f32, 0i32) while n < limit && zr * zr + zi * zi < 4f32 do
      (zr * zr - zi * zi + cr, 2f32 * zr * zi + ci, n + 1)
  in n

-- ==
-- entry: main
-- input { 5i64 8i64 30i32 } output { [[1i32, 2i32, 3i32, 3i32, 4i32, 13i32, 4i32, 2i32], [1i32, 3i32, 3i32, 5i32, 30i32, 30i32, 14i32, 3i32], [1i32, 5i32, 11i32, 30i32, 30i32, 30i32, 30i32, 4i32], [1i32, 5i32, 11i32, 30i32, 30i32, 30i32, 30i32, 4i32], [1i32, 3i32, 3i32, 5i32, 30i32, 30i32, 14i32, 3i32]] }
-- input { 0i64 8i64 30i32 } output { empty([0][8]i32) }
-- input { 1i64 1i64 0i32 } output { [[0i32]] }
entry main (h: i64) (w: i64) (limit: i32) : [][]i32 =
  map (\y -> map (\x -> escape limit (f32.i64 x * 3f32 / f32.i64 w - 2f32) (f32.i64 y * 2f32 / f32.i64 h - 1f32)) (iota w)) (iota h)

-- The mean escape count of a larger image (a float: the GPU may contract
-- z*z + c into fused multiply-adds, which moves a pixel or two).
-- ==
-- entry: total
-- input { 100i64 150i64 60i32 } output { 19.989866f32 }
entry total (h: i64) (w: i64) (limit: i32) : f32 =
  f32.i64 (i64.sum (map i64.i32 (flatten (main h w limit)))) / f32.i64 (h * w)
