-- A for loop; the loop variable takes the type of the bound (here i32).
-- ==
-- input { 10i32 } output { 45i32 }
-- input { 0i32 } output { 0i32 }
-- input { 1i32 } output { 0i32 }
entry main (n: i32) : i32 = loop acc = 0 for i < n do acc + i
