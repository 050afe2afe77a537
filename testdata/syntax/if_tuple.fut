-- Both branches of an if may be tuples or arrays.
-- ==
-- input { true } output { [1i32, 2i32] 3.0f32 }
-- input { false } output { [4i32, 5i32] 6.0f32 }
entry main (b: bool) : ([]i32, f32) =
  if b then ([1, 2], 3.0) else ([4, 5], 6.0)
