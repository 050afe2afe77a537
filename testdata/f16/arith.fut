-- Arithmetic on f16 rounds every result to the nearest half, ties to
-- even (IEEE binary16), overflows to inf past 65504 and keeps nan. The
-- results are compared as bits (f16.to_bits), because test outputs that
-- are floats compare with a tolerance that would hide a wrong rounding.
-- The expected bits come from Python's struct 'e' format, an independent
-- binary16 conversion.

-- x+y, x-y, x*y, x/y as bits
-- ==
-- entry: arith
-- input { 1f16 0.00048828125f16 } output { 0x3c00u16 0x3bffu16 0x1000u16 0x6800u16 }
-- input { 1f16 0.00146484375f16 } output { 0x3c02u16 0x3bfdu16 0x1600u16 0x6155u16 }
-- input { 65504f16 16f16 } output { 0x7c00u16 0x7bfeu16 0x7c00u16 0x6bffu16 }
-- input { 65504f16 8f16 } output { 0x7bffu16 0x7bffu16 0x7c00u16 0x6fffu16 }
-- input { 0.1f16 0.2f16 } output { 0x34ccu16 0xae66u16 0x251eu16 0x3800u16 }
-- input { 2048f16 1f16 } output { 0x6800u16 0x67ffu16 0x6800u16 0x6800u16 }
-- input { 2048f16 3f16 } output { 0x6802u16 0x67fdu16 0x6e00u16 0x6155u16 }
-- input { 1f16 0f16 } output { 0x3c00u16 0x3c00u16 0x0000u16 0x7c00u16 }
-- input { -1f16 0f16 } output { 0xbc00u16 0xbc00u16 0x8000u16 0xfc00u16 }
entry arith (x: f16) (y: f16) : (u16, u16, u16, u16) =
  (f16.to_bits (x + y), f16.to_bits (x - y), f16.to_bits (x * y), f16.to_bits (x / y))

-- nan and inf: comparisons and the predicates
-- ==
-- entry: special
-- input { 0f16 0f16 } output { true false false true }
-- input { 1f16 0f16 } output { false true false false }
-- input { 65504f16 2f16 } output { false true false false }
-- input { f16.nan 1f16 } output { true false false true }
entry special (x: f16) (y: f16) : (bool, bool, bool, bool) =
  let q = if y == 0 then x / y else x * y
  in (f16.isnan q, f16.isinf q, q == q && q < 0, q != q)

-- The subnormals: halving the smallest ones rounds to even.
-- ==
-- entry: subnormal
-- input { 0x0001u16 } output { 0x0000u16 0x0002u16 0x8000u16 }
-- input { 0x0003u16 } output { 0x0002u16 0x0006u16 0x8002u16 }
-- input { 0x0400u16 } output { 0x0200u16 0x0800u16 0x8200u16 }
entry subnormal (b: u16) : (u16, u16, u16) =
  let x = f16.from_bits b
  in (f16.to_bits (x / 2), f16.to_bits (x * 2), f16.to_bits (-x / 2))

-- Functions are computed in f32 and rounded: sqrt exactly, the others
-- as Futhark's C backend does.
-- ==
-- entry: funs
-- input { 2f16 } output { 0x3da8u16 0x3555u16 1.4140625f16 7.389f16 0.6931f16 }
entry funs (x: f16) : (u16, u16, f16, f16, f16) =
  (f16.to_bits (f16.sqrt x), f16.to_bits (1 / (x + 1)), f16.sqrt x, f16.exp x, f16.log x)

-- The f16 module: constants, min and max, and the bits.
-- ==
-- entry: consts
-- input { 1.5f16 } output { 0x7c00u16 0xfc00u16 0x1400u16 0x3e00u16 -1.5f16 1.5f16 16 }
entry consts (x: f16) : (u16, u16, u16, u16, f16, f16, i32) =
  (f16.to_bits f16.inf, f16.to_bits f16.lowest, f16.to_bits f16.epsilon,
   f16.to_bits (f16.max x (f16.min x 2)), f16.neg x, f16.abs (-x), f16.num_bits)

-- Every intermediate result is a half: (x + y) - x loses what x + y
-- rounded away, and x * 2 overflows before / 4 could bring it back.
-- ==
-- entry: chain
-- input { 1f16 0.00048828125f16 } output { 0x0000u16 0x3800u16 }
-- input { 2048f16 1f16 } output { 0x0000u16 0x6400u16 }
-- input { 65504f16 1f16 } output { 0x0000u16 0x7c00u16 }
entry chain (x: f16) (y: f16) : (u16, u16) =
  (f16.to_bits ((x + y) - x), f16.to_bits (x * 2 / 4))

-- f16.nextafter steps by one half (C's nextafter on binary16)
-- ==
-- entry: next
-- input { [1f16, 1f16, 0f16, 0f16, 65504f16, f16.inf, -1f16, 2f16, 0.00000006f16]
--         [2f16, 0f16, 1f16, -1f16, f16.inf, 0f16, 0f16, 2f16, 0f16] }
-- output { [0x3c01u16, 0x3bffu16, 0x0001u16, 0x8001u16, 0x7c00u16, 0x7bffu16, 0xbbffu16, 0x4000u16, 0x0000u16] }
-- input { [f16.nan, 1f16] [1f16, f16.nan] } output { [0x7e00u16, 0x7e00u16] }
entry next (xs: []f16) (ys: []f16) : []u16 = map2 (\x y -> f16.to_bits (f16.nextafter x y)) xs ys
