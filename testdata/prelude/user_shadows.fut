-- A program's own definitions take precedence over the prelude's.
-- ==
-- input { [1i32, 2i32, 3i32] } output { 99i32 }
def head (_: []i32) : i32 = 99
entry main (xs: []i32) : i32 = head xs
