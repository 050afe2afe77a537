-- f32.recip (issue 17: the numeric modules' members).
-- ==
-- input { 2.0f32 } output { 0.5f32 }
-- input { -4.0f32 } output { -0.25f32 }
-- input { 0.5f32 } output { 2.0f32 }
entry main (x: f32) : f32 = f32.recip x
