-- Unsigned and narrow indices convert to i64 without sign extension.
-- ==
-- input { [1f32, 2f32, 3f32] 1u8 2u16 } output { 2f32 [2f32] }
entry main (a: []f32) (i: u8) (j: u16) : (f32, []f32) = (a[i], a[i:j])
