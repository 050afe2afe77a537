-- A range as the array of a for-in loop.
-- ==
-- input { 5i32 } output { 15i32 }
entry main (n: i32) : i32 = loop acc = 0 for i in 1...n do acc + i
