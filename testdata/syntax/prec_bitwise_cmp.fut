-- Bitwise operators bind tighter than comparisons: x & 1 == 1 is (x & 1) == 1.
-- ==
-- input { 3i32 } output { true false }
-- input { 2i32 } output { false true }
entry main (x: i32) : (bool, bool) = (x & 1 == 1, x ^ 1 > x)
