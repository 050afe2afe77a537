-- Radix sort (scanomap paper, Appendix A): 32 steps, one per bit. Each step
-- splits the array by the bit with two prefix sums over the bit flags and a
-- scatter; the maps feeding the scans fuse into scanomaps.

def radix_sort_step [n] (xs: [n]u32) (digit: i32) : [n]u32 =
  let bits = map (\x -> i64.u32 ((x >> u32.i32 digit) & 1)) xs
  let bits_inv = map (\b -> 1 - b) bits
  let ps0 = scan (+) 0 bits_inv
  let ps0_clean = map2 (*) bits_inv ps0
  let ps1 = scan (+) 0 bits
  let ps0_offset = reduce (+) 0 bits_inv
  let ps1_clean = map (+ ps0_offset) ps1
  let ps1_clean' = map2 (*) bits ps1_clean
  let ps = map2 (+) ps0_clean ps1_clean'
  let ps_actual = map (\p -> p - 1) ps
  in scatter (replicate n 0) ps_actual xs

def radix_sort [n] (xs: [n]u32) : [n]u32 =
  loop ys = xs for i < 32 do radix_sort_step ys i

-- ==
-- input { [5u32, 3u32, 4294967295u32, 0u32, 3u32, 1024u32] }
-- output { [0u32, 3u32, 3u32, 5u32, 1024u32, 4294967295u32] }
-- input { empty([0]u32) } output { empty([0]u32) }
-- input { [7u32] } output { [7u32] }
entry main (xs: []u32) : []u32 = radix_sort xs
