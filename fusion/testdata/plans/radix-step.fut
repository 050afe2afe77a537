-- One step of the scanomap paper's radix sort: partition by a bit with two
-- scans over the bit and its complement (scanomap-scanomap), then scatter.
def step [n] (b: i32) (xs: [n]u32) : [n]u32 =
  let bits = map (\x -> i32.u32 ((x >> u32.i32 b) & 1)) xs
  let zeros = scan (+) 0 (map (\x -> 1 - x) bits)
  let ones = scan (+) 0 bits
  let nz = if n == 0 then 0 else zeros[n - 1]
  let idx = map3 (\bit z o -> if bit == 0 then i64.i32 (z - 1) else i64.i32 (nz + o - 1)) bits zeros ones
  in scatter (map (\x -> x) xs) idx xs

entry main [n] (xs: [n]u32) : [n]u32 =
  loop xs for i < 32 do step i xs
