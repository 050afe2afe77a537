-- `f -1` is the subtraction f - 1, not an application.
-- ==
-- input { 10i32 } output { 9i32 }
entry main (f: i32) : i32 = f -1
