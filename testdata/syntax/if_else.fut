-- if-then-else chains are expressions.
-- ==
-- input { -5i32 } output { 5i32 }
-- input { 0i32 } output { 100i32 }
-- input { 7i32 } output { 7i32 }
entry main (x: i32) : i32 =
  if x < 0 then -x else if x == 0 then 100 else x
