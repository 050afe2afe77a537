-- Indices are i64; an index of another integer type is converted explicitly.
-- ==
-- input { [10i32, 20i32, 30i32] 1i32 2u8 0i16 } output { 20i32 30i32 10i32 }
entry main (xs: []i32) (a: i32) (b: u8) (c: i16) : (i32, i32, i32) =
  (xs[i64.i32 a], xs[i64.u8 b], xs[i64.i16 c])
