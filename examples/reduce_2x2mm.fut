-- Reduce2x2MM (redomap paper, benchmark 5): a loop of 42 steps; each adds the
-- loop-variant s to every element and reduces the array with 2x2 matrix
-- multiplication, where one i32 packs the four i8 entries of a matrix. The
-- operator is associative but not commutative. (The paper starts from
-- 0xFF00FF00; we use the identity matrix 0x01000001, which is the operator's
-- neutral element, as reduce requires.)

def unpack (x: i32) : (i8, i8, i8, i8) =
  (i8.i32 (x >> 24), i8.i32 (x >> 16), i8.i32 (x >> 8), i8.i32 x)

def pack (a: i8) (b: i8) (c: i8) (d: i8) : i32 =
  ((i32.i8 a & 0xFF) << 24) | ((i32.i8 b & 0xFF) << 16) | ((i32.i8 c & 0xFF) << 8) | (i32.i8 d & 0xFF)

def mm2x2 (x: i32) (y: i32) : i32 =
  let (x11, x12, x21, x22) = unpack x
  let (y11, y12, y21, y22) = unpack y
  in pack (x11 * y11 + x12 * y21) (x11 * y12 + x12 * y22)
          (x21 * y11 + x22 * y21) (x21 * y12 + x22 * y22)

-- ==
-- input { [1i32, 2i32, 3i32] } output { 238i32 }
-- input { empty([0]i32) } output { 16777217i32 }
-- input { [5i32, -3i32, 7i32, 100i32, -128i32, 65536i32] } output { 4i32 }
entry main (a: []i32) : i32 =
  loop s = 1 for _i < 42 do
    reduce mm2x2 0x01000001 (map (+ s) a)
