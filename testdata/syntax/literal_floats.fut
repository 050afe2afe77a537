-- Float literal forms: suffixes, exponents and underscores.
-- ==
-- input { true } output { 2.5f32 1000.0f64 0.015f64 1000.5f64 0.25f32 }
entry main (b: bool) : (f32, f64, f64, f64, f32) =
  if b then (2.5f32, 1e3, 1.5e-2, 1_000.5, 25.0e-2)
  else (0.0, 0.0, 0.0, 0.0, 0.0)
