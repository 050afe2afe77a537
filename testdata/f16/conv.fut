-- Conversions to and from f16. To f16 rounds to the nearest half, ties
-- to even, straight from f64 (rounding through f32 would round twice);
-- from f16 is exact to f32 and f64 and truncates to integers.

-- from f64, f32 and i32, as bits
-- ==
-- entry: to_half
-- input { 1.0004882812509095f64 0.1f32 2049 } output { 0x3c01u16 0x2e66u16 0x6800u16 }
-- input { 1.00048828125f64 0.2f32 2051 } output { 0x3c00u16 0x3266u16 0x6802u16 }
-- input { 65519.9f64 65520f32 65519 } output { 0x7bffu16 0x7c00u16 0x7bffu16 }
-- input { -1e10f64 1e-10f32 100000 } output { 0xfc00u16 0x0000u16 0x7c00u16 }
-- input { f64.nan f32.inf -7 } output { 0x7e00u16 0x7c00u16 0xc700u16 }
entry to_half (a: f64) (b: f32) (c: i32) : (u16, u16, u16) =
  (f16.to_bits (f16.f64 a), f16.to_bits (f16.f32 b), f16.to_bits (f16.i32 c))

-- from f16
-- ==
-- entry: from_half
-- input { 0.1f16 } output { 0.0999755859375f64 0.0999755859375f32 0i32 0u8 true }
-- input { -2.5f16 } output { -2.5f64 -2.5f32 -2i32 2u8 true }
-- input { 200.7f16 } output { 200.75f64 200.75f32 200i32 200u8 true }
-- input { 0f16 } output { 0f64 0f32 0i32 0u8 false }
entry from_half (x: f16) : (f64, f32, i32, u8, bool) =
  (f64.f16 x, f32.f16 x, i32.f16 x, u8.f16 (f16.abs x), bool.f16 x)

-- i64, u16 and bool to f16, and back through the bits
-- ==
-- entry: others
-- input { 3000000000i64 65535u16 true } output { f16.inf f16.inf 1f16 0x7c00u16 }
-- input { 65504i64 65504u16 true } output { 65504f16 65504f16 1f16 0x7bffu16 }
-- input { -3i64 1u16 false } output { -3f16 1f16 0f16 0x3c00u16 }
entry others (a: i64) (b: u16) (c: bool) : (f16, f16, f16, u16) =
  (f16.i64 a, f16.from_bits (f16.to_bits (f16.u16 b)), f16.bool c, f16.to_bits (f16.u16 b))
