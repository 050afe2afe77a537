-- Shifts bind looser than + and tighter than &: 1 << 2 + 1 is 1 << 3.
-- ==
-- input { 1i32 } output { 8i32 0i32 }
entry main (x: i32) : (i32, i32) = (x << 2 + 1, x << 1 & 1)
