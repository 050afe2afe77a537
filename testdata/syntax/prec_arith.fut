-- Arithmetic precedence: * before +, ** before *, and ** groups to the left
-- as in Futhark (2 ** 3 ** 2 is (2 ** 3) ** 2).
-- ==
-- input { 2i32 } output { 9i32 64i32 16i32 }
entry main (x: i32) : (i32, i32, i32) =
  (x + 3 * 4 - 10 / 2, x ** 3 ** 2, 2 * x ** 3 + x - x)
