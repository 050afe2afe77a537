-- >>> is the logical shift right for signed types too.
-- ==
-- input { -16i32 2i32 } output { 1073741820i32 -4i32 }
entry main (x: i32) (s: i32) : (i32, i32) = (x >>> s, x >> s)
