-- iterate applies a function n times.
-- ==
-- input { 10i32 } output { 1024i64 }
-- input { 0i32 } output { 1i64 }
entry main (n: i32) : i64 = iterate n (* 2) 1
