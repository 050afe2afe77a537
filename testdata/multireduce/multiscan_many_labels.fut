-- multiscan over 5000 labels: beyond the state the GPU's chunked algorithm
-- keeps per chunk, so the GPU sorts the labels and scans in sorted order
-- (thesis §5.5). Checked through the sum of the results and a few probes.
-- ==
-- input { 5000i64 200000i64 [0i64, 4999i64, 5000i64, 123456i64, 199999i64] }
-- output { 28699434i64 [1i64, 8i64, 10i64, 178i64, 281i64] }
-- input { 5000i64 7i64 [0i64, 1i64, 6i64] } output { 28i64 [1i64, 2i64, 7i64] }
entry main (k: i64) (n: i64) (probes: []i64) : (i64, []i64) =
  let ls = map (\i -> (i * 7919) % k) (iota n)
  let r = multiscan (+) 0 k ls (map (\i -> i % 13 + 1) (iota n))
  in (i64.sum r, map (\j -> r[j]) probes)
