-- No implicit conversions: mixing widths needs explicit conversion functions.
-- ==
-- input { 100i8 1000i16 100000i32 1i64 } output { 101101i64 101101.0f64 }
entry main (a: i8) (b: i16) (c: i32) (d: i64) : (i64, f64) =
  let s = i64.i8 a + i64.i16 b + i64.i32 c + d
  in (s, f64.i64 s)
