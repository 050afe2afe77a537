-- f32.ldexp x n is x * 2**n (issue 17).
-- ==
-- input { 3.0f32 4i32 } output { 48.0f32 }
-- input { 1.0f32 -2i32 } output { 0.25f32 }
-- input { -0.5f32 10i32 } output { -512.0f32 }
entry main (x: f32) (n: i32) : f32 = f32.ldexp x n
