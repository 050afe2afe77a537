-- u8 buckets updated by compare-and-swap on the 4-byte word that holds
-- them: at 65536 buckets the GPU's shared-memory kernel holds one copy per
-- block and sorts the elements by bucket first. Checked through the sum of
-- the buckets and a few probes.
-- ==
-- input { 300000i64 [0i64, 1i64, 7919i64, 65535i64, 40000i64] }
-- output { 899997i64 [13u8, 12u8, 11u8, 16u8, 17u8] }
-- input { 5i64 [0i64, 1i64, 7919i64, 65535i64, 40000i64] } output { 10i64 [0u8, 0u8, 1u8, 0u8, 0u8] }
entry main (n: i64) (probes: []i64) : (i64, []u8) =
  let is = map (\i -> (i * 7919) % 65536) (iota n)
  let h = hist (+) 0u8 65536 is (map (\i -> u8.i64 (i % 7)) (iota n))
  in (i64.sum (map i64.u8 h), map (\j -> h[j]) probes)
