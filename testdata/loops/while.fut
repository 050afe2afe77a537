-- A while loop: the first power of two not below n.
-- ==
-- input { 1i32 } output { 1i32 }
-- input { 100i32 } output { 128i32 }
-- input { 128i32 } output { 128i32 }
entry main (n: i32) : i32 = loop x = 1 while x < n do x * 2
