-- Ordered reductions that the CPU backend runs as lane-major folds
-- (eval/cpu/lanefold.go): 1024 segments of a chunk folded in step, then
-- the segments' results and the lanes left over in order. The operators
-- are associative but not commutative, the lengths leave a tail, and the
-- longest span several chunks. The 8- and 16-bit statements run in i32
-- lanes (eval/cpu/veccode.go), and max(c, a + b) and a*b + c*d as fused
-- kernels (eval/cpu/fused.go), with the sum on either side of the max.

-- A pseudo-random walk in -1024..1023, made by a scan so that the
-- reductions' maps read an array (the map-fused fold), not the index.
def walk (n: i64) : []i32 =
  map (\s -> (s & 2047) - 1024) (scan (+) 0 (map (\i -> i32.i64 (i * 7919 % 10007)) (iota n)))

-- The maximum segment sum, its operator with the sum on the left of two
-- of its maxes.
-- ==
-- entry: mssp
-- input { 0i64 } output { 0i32 }
-- input { 1i64 } output { 0i32 }
-- input { 2049i64 } output { 17620i32 }
-- input { 5000i64 } output { 41625i32 }
-- input { 200003i64 } output { 171567i32 }
entry mssp (n: i64) : i32 =
  let op (mssx: i32, misx: i32, mcsx: i32, tsx: i32) (mssy: i32, misy: i32, mcsy: i32, tsy: i32) =
    (i32.max (i32.max (mcsx + misy) mssy) mssx, i32.max misx (tsx + misy), i32.max (mcsx + tsy) mcsy, tsx + tsy)
  let (m, _, _, _) = reduce op (0, 0, 0, 0) (map (\x -> let p = i32.max x 0 in (p, p, p, x)) (walk n))
  in m

-- The same over a map that returns its parameter (the gathered input
-- itself) beside computed values; the input, a scan by xor of values in
-- -1024..1023, stays in that range.
-- ==
-- entry: mssp_param
-- input { 0i64 } output { 0i32 }
-- input { 5000i64 } output { 8000i32 }
-- input { 200003i64 } output { 8000i32 }
entry mssp_param (n: i64) : i32 =
  let op (mssx: i32, misx: i32, mcsx: i32, tsx: i32) (mssy: i32, misy: i32, mcsy: i32, tsy: i32) =
    (i32.max mssx (i32.max mssy (mcsx + misy)), i32.max misx (tsx + misy), i32.max mcsy (mcsx + tsy), tsx + tsy)
  let xs = scan (^) 0 (map (\i -> i32.i64 (i * 7919 % 2048) - 1024) (iota n))
  let (m, _, _, _) = reduce op (0, 0, 0, 0) (map (\x -> let p = i32.max x 0 in (p, p, p, x)) xs)
  in m

-- 2x2 matrices of i8 packed in an i32 (Reduce2x2MM's operator), over the
-- walk spread to all four bytes.
def unpack (x: i32) : (i8, i8, i8, i8) =
  (i8.i32 (x >> 24), i8.i32 (x >> 16), i8.i32 (x >> 8), i8.i32 x)

def pack (a: i8) (b: i8) (c: i8) (d: i8) : i32 =
  ((i32.i8 a & 0xFF) << 24) | ((i32.i8 b & 0xFF) << 16) | ((i32.i8 c & 0xFF) << 8) | (i32.i8 d & 0xFF)

def mm8 (x: i32) (y: i32) : i32 =
  let (x11, x12, x21, x22) = unpack x
  let (y11, y12, y21, y22) = unpack y
  in pack (x11 * y11 + x12 * y21) (x11 * y12 + x12 * y22)
          (x21 * y11 + x22 * y21) (x21 * y12 + x22 * y22)

-- ==
-- entry: mat8
-- input { 0i64 } output { 16777217i32 }
-- input { 3000i64 } output { 931041843i32 }
-- input { 200003i64 } output { 2045885671i32 }
entry mat8 (n: i64) : i32 =
  reduce mm8 0x01000001 (map (\x -> ((x * 40503 + 12345) | 0x01000001) & -257) (walk n))

-- The same product over u8 entries (zero-extended when packed) and over
-- i16 entries (four i32 components, sign-extended).
def mmu8 (x: i32) (y: i32) : i32 =
  let (x11, x12, x21, x22) = (u8.i32 (x >> 24), u8.i32 (x >> 16), u8.i32 (x >> 8), u8.i32 x)
  let (y11, y12, y21, y22) = (u8.i32 (y >> 24), u8.i32 (y >> 16), u8.i32 (y >> 8), u8.i32 y)
  in (i32.u8 (x11 * y11 + x12 * y21) << 24) | (i32.u8 (x11 * y12 + x12 * y22) << 16)
     | (i32.u8 (x21 * y11 + x22 * y21) << 8) | i32.u8 (x21 * y12 + x22 * y22)

-- ==
-- entry: mat_u8
-- input { 0i64 } output { 16777217i32 }
-- input { 4100i64 } output { 793451219i32 }
-- input { 200003i64 } output { 2045885671i32 }
entry mat_u8 (n: i64) : i32 =
  reduce mmu8 0x01000001 (map (\x -> ((x * 40503 + 12345) | 0x01000001) & -257) (walk n))

-- ==
-- entry: mat_i16
-- input { 0i64 } output { 1i32 0i32 0i32 1i32 }
-- input { 4100i64 } output { 139i32 22288i32 -26073i32 10320i32 }
-- input { 200003i64 } output { 9035i32 12212i32 9191i32 -22844i32 }
entry mat_i16 (n: i64) : (i32, i32, i32, i32) =
  reduce (\(a1: i32, b1: i32, c1: i32, d1: i32) (a2: i32, b2: i32, c2: i32, d2: i32) ->
            let (x11, x12, x21, x22) = (i16.i32 a1, i16.i32 b1, i16.i32 c1, i16.i32 d1)
            let (y11, y12, y21, y22) = (i16.i32 a2, i16.i32 b2, i16.i32 c2, i16.i32 d2)
            in ( i32.i16 (x11 * y11 + x12 * y21), i32.i16 (x11 * y12 + x12 * y22)
               , i32.i16 (x21 * y11 + x22 * y21), i32.i16 (x21 * y12 + x22 * y22) ))
         (1, 0, 0, 1)
         (map (\x -> (x * 3 + 1, x * 977, x ^ 0x55, x * x)) (walk n))

-- A map of i8 and i16 statements (run in i32 lanes in the map-fused
-- fold): wrapping products, max, min and a comparison of their values,
-- and conversions to u8, i64, f32 and bool.
-- ==
-- entry: narrow_map
-- input { 0i64 } output { 0i64 0i64 }
-- input { 5000i64 } output { 666542i64 219445i64 }
-- input { 200003i64 } output { 26877617i64 278572i64 }
entry narrow_map (n: i64) : (i64, i64) =
  reduce (\(a, b) (c, d) -> (a + c, b ^ d)) (0, 0)
         (map (\x -> let e = i8.i32 x
                     let f = i8.i32 (x >> 3)
                     let g = e * f + e
                     let s = i64.i8 (i8.max g f) + i64.bool (g < f) + i64.u8 (u8.i8 g)
                             + i64.f32 (f32.i8 (e - f)) + i64.i16 (i16.min (i16.i8 g) (-3))
                             + i64.bool (bool.i8 (g & 3))
                     in (s, s * i64.i32 x))
              (walk n))
