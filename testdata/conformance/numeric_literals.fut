-- Literal forms: binary, hexadecimal, underscores, exponents, hexadecimal
-- floats, suffixes, and the defaults (i32, f64).
-- ==
-- input { } output { 5 255 1000000 1000.0f64 0.0015f32 3.0f64 3f32 255u8 -128i8 1i64 0.5f64 12u16 }
entry main =
  (0b101, 0xFF, 1_000_000, 1e3, 1.5e-3f32, 0x1.8p1, 3f32, 0xffu8, -128i8, 1i64, 0.5, 0b1100u16)
