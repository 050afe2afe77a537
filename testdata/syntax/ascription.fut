-- Type ascription on expressions and let bindings fixes literal types.
-- ==
-- input { 2i32 } output { 7i64 255u8 }
entry main (x: i32) : (i64, u8) =
  let y : i64 = 5
  let z = (255 : u8)
  in (y + i64.i32 x, z)
