-- One step of an n-body simulation: all-pairs accelerations, then
-- velocities and positions. Returns a checksum of the new positions.
entry main (n: i64) : f64 =
  let xs = map (\i -> f64.i64 (i % 97) * 0.5f64) (iota n)
  let ys = map (\i -> f64.i64 (i % 89) * 0.25f64) (iota n)
  let zs = map (\i -> f64.i64 (i % 83) * 0.125f64) (iota n)
  let ms = map (\i -> 1f64 + f64.i64 (i % 5)) (iota n)
  let dt = 0.01f64
  let eps = 0.01f64
  let acc = map (\i ->
                   let (xi, yi, zi) = (xs[i], ys[i], zs[i])
                   in loop (ax, ay, az) = (0f64, 0f64, 0f64) for j < n do
                        let dx = xs[j] - xi
                        let dy = ys[j] - yi
                        let dz = zs[j] - zi
                        let r2 = dx * dx + dy * dy + dz * dz + eps
                        let inv = ms[j] / (r2 * f64.sqrt r2)
                        in (ax + dx * inv, ay + dy * inv, az + dz * inv))
                (iota n)
  let (axs, ays, azs) = unzip3 acc
  let nx = map2 (\x a -> x + dt * dt * a) xs axs
  let ny = map2 (\y a -> y + dt * dt * a) ys ays
  let nz = map2 (\z a -> z + dt * dt * a) zs azs
  in reduce (+) 0f64 nx + reduce (+) 0f64 ny + reduce (+) 0f64 nz
