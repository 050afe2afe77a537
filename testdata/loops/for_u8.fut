-- The loop variable of `for i < n` has the type of n.
-- ==
-- input { 5u8 } output { 10u8 }
entry main (n: u8) : u8 = loop acc = 0u8 for i < n do acc + i
