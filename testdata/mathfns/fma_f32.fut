-- f32.fma (issue 17: the numeric modules' members).
-- ==
-- input { 2.0f32 3.0f32 4.0f32 } output { 10.0f32 }
-- input { -1.5f32 2.0f32 0.25f32 } output { -2.75f32 }
entry main (a: f32) (b: f32) (c: f32) : f32 = f32.fma a b c
