-- A loop parameter with a type ascription.
-- ==
-- input { 5u8 } output { 32u8 }
-- input { 9u8 } output { 0u8 }
entry main (n: u8) : u8 = loop (x: u8) = 1 for _i < n do x * 2
