-- The top-level names of Futhark's prelude.fut and zip.fut: r32, t32,
-- r64, t64, not, opaque, trace, break, zip2 and unzip2.
-- ==
-- input { 3i32 2.75f64 }
-- output { 3f32 2i32 3f64 2i32 [false, true] 3i32 3i32 [1i32] [3i32] }
entry main (x: i32) (y: f64) =
  let (a, b) = unzip2 (opaque (zip2 [1i32] [x]))
  in (r32 x, t32 (f32.f64 y), r64 x, t64 y, map not [true, false], trace (break x), (zip2 [1i32] [x])[0].1, a, b)
