-- The program fails to load, unexpectedly.
-- ==
-- input { 1i32 } output { 1i32 }
entry main (x: i32) : i32 = x + nope
