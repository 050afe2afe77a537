-- A tridiagonal solve (Thomas algorithm) per row: m systems of size k,
-- sub-diagonal a, diagonal b, super-diagonal c, right-hand side d.
def thomas [k] (a: [k]f64) (b: [k]f64) (c: [k]f64) (d: [k]f64) : [k]f64 =
  let cp = replicate k 0f64
  let dp = replicate k 0f64
  let cp = cp with [0] = c[0] / b[0]
  let dp = dp with [0] = d[0] / b[0]
  let (cp, dp) =
    loop (cp, dp) for j < k - 1 do
      let i = j + 1
      let m = b[i] - a[i] * cp[i-1]
      let cp = cp with [i] = c[i] / m
      let dp = dp with [i] = (d[i] - a[i] * dp[i-1]) / m
      in (cp, dp)
  let x = replicate k 0f64
  let x = x with [k-1] = dp[k-1]
  let x = loop x for j < k - 1 do
            let i = k - 2 - j
            in x with [i] = dp[i] - cp[i] * x[i+1]
  in x

entry main (m: i64) (k: i64) : f64 =
  let rows = map (\r ->
                    let a = map (\i -> 1f64 + f64.i64 ((r + i) % 7)) (iota k)
                    let b = map (\i -> 20f64 + f64.i64 ((r * i) % 5)) (iota k)
                    let c = map (\i -> 2f64 + f64.i64 ((r + 2 * i) % 3)) (iota k)
                    let d = map (\i -> f64.i64 ((r + i) % 11)) (iota k)
                    in thomas a b c d) (iota m)
  in reduce (+) 0f64 (map (\row -> reduce (+) 0f64 row) rows)
