-- 10^7 buckets (far beyond the caches): a million values spread over them,
-- every tenth index out of range and so ignored. The result is checked
-- through its length, its sum and a few probed buckets.
-- ==
-- input { 10000000i64 1000000i64 [39595i64, 8992081i64, 102947i64, 0i64] }
-- output { 10000000i64 449999700000i64 [5i64, 999999i64, 0i64, 0i64] }
-- input { 3i64 10i64 [0i64, 1i64, 2i64] } output { 3i64 42i64 [15i64, 15i64, 12i64] }
entry main (k: i64) (n: i64) (probes: []i64) : (i64, i64, []i64) =
  let is = map (\i -> if i % 10 == 3 then -1 else (i * 7919) % k) (iota n)
  let h = hist (+) 0 k is (iota n)
  in (length h, i64.sum h, map (\j -> h[j]) probes)
