-- r with f = v replaces one field.
-- ==
-- input { 1i32 } output { 1i32 10i32 }
entry main (a: i32) : (i32, i32) = let r = {a, b = 2i32} let s = r with b = 10 in (s.a, s.b)
