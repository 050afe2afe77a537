-- Mandelbrot set: for each point of an n×n grid over [-2,1]×[-1.5,1.5],
-- the number of iterations (at most 255) before |z| > 2.
def divergence (cr: f64) (ci: f64) : i32 =
  let (_, _, i) =
    loop (zr, zi, i) = (0f64, 0f64, 0i32) while i < 255 && zr * zr + zi * zi < 4f64 do
      (zr * zr - zi * zi + cr, 2f64 * zr * zi + ci, i + 1)
  in i

entry main (n: i64) : [][]i32 =
  map (\y ->
         map (\x -> divergence (-2f64 + 3f64 * f64.i64 x / f64.i64 n)
                               (-1.5f64 + 3f64 * f64.i64 y / f64.i64 n))
             (iota n))
      (iota n)
