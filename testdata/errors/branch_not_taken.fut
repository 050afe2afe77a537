-- An error in the branch not taken does not happen.
-- ==
-- input { 0i32 } output { 0i32 }
-- input { 2i32 } output { 5i32 }
entry main (x: i32) : i32 = if x == 0 then 0 else 10 / x
