-- Counting into u8 buckets wraps at 256, like any u8 addition.
-- ==
-- input { 300i64 } output { [44u8, 0u8] }
-- input { 0i64 } output { [0u8, 0u8] }
entry main (n: i64) : []u8 = hist (+) 0u8 2 (replicate n 0) (replicate n 1u8)
