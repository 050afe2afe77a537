-- Nested loops.
-- ==
-- input { 3i32 4i32 } output { 18i32 }
entry main (n: i32) (m: i32) : i32 =
  loop s = 0 for i < n do
    loop t = s for j < m do t + i * j
