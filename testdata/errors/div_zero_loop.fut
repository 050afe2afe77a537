-- Division by zero in a loop, on the iteration that divides by zero.
-- ==
-- input { 3i32 } output { 5i32 }
-- input { 5i32 } error: division by zero
entry main (n: i32) : i32 = loop acc = 120 for i < n do acc / (4 - i)
