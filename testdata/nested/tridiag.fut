-- A tridiagonal solve per row (the Thomas algorithm), with thread-local
-- arrays updated in place in sequential loops.
def solve [n] (a: [n]f32) (b: [n]f32) (c: [n]f32) (d: [n]f32) : [n]f32 =
  let cp = replicate n 0f32
  let dp = replicate n 0f32
  let (cp, dp) =
    loop (cp, dp) for i < n do
      if i == 0 then
        let cp[0] = c[0] / b[0]
        let dp[0] = d[0] / b[0]
        in (cp, dp)
      else
        let m = b[i] - a[i] * cp[i - 1]
        let cp[i] = c[i] / m
        let dp[i] = (d[i] - a[i] * dp[i - 1]) / m
        in (cp, dp)
  let x = replicate n 0f32
  let x = loop x for j < n do
    let i = n - 1 - j
    let x[i] = if i == n - 1 then dp[i] else dp[i] - cp[i] * x[i + 1]
    in x
  in x

-- ==
-- entry: main
-- input { [[0f32, 1f32, 1f32], [0f32, -1f32, 2f32]] [[4f32, 4f32, 4f32], [3f32, 3f32, 3f32]] [[1f32, 1f32, 0f32], [1f32, 1f32, 0f32]] [[5f32, 6f32, 5f32], [4f32, 3f32, 5f32]] } output { [[1.0f32, 1.0f32, 1.0f32], [1.0f32, 1.0000001f32, 0.9999999f32]] }
-- input { empty([0][3]f32) empty([0][3]f32) empty([0][3]f32) empty([0][3]f32) } output { empty([0][3]f32) }
entry main [r][n] (as: [r][n]f32) (bs: [r][n]f32) (cs: [r][n]f32) (ds: [r][n]f32) : [r][n]f32 =
  map2 (\(a, b) (c, d) -> solve a b c d) (zip as bs) (zip cs ds)

-- Many rows of a diagonally dominant system: how many rows solve to a
-- residual below 0.01.
-- ==
-- entry: big
-- input { 500i64 40i64 } output { 500i64 }
entry big (r: i64) (n: i64) : i64 =
  let as = map (\i -> map (\j -> if j == 0 then 0f32 else f32.i64 ((i + j) % 3) - 1f32) (iota n)) (iota r)
  let bs = map (\i -> map (\j -> 4f32 + f32.i64 ((i * j) % 2)) (iota n)) (iota r)
  let cs = map (\i -> map (\j -> if j == n - 1 then 0f32 else f32.i64 ((i + 2 * j) % 3) - 1f32) (iota n)) (iota r)
  let ds = map (\i -> map (\j -> f32.i64 ((i * 3 + j) % 7)) (iota n)) (iota r)
  let xs = map2 (\(a, b) (c, d) -> solve a b c d) (zip as bs) (zip cs ds)
  let res = map3 (\(a, b) (c, d) x ->
      f32.sum (map (\i -> let l = if i > 0 then a[i] * x[i - 1] else 0f32
                          let u = if i < n - 1 then c[i] * x[i + 1] else 0f32
                          in f32.abs (l + b[i] * x[i] + u - d[i])) (iota n))) (zip as bs) (zip cs ds) xs
  in i64.sum (map (\x -> if x < 0.01f32 then 1 else 0) res)
