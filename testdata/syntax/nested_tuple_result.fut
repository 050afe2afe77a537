-- A result with a nested tuple lists its components in order.
-- ==
-- input { 3i32 } output { 3i32 4i32 true }
entry main (x: i32) : (i32, (i32, bool)) = (x, (x + 1, x > 0))
