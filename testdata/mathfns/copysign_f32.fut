-- f32.copysign (issue 17: the numeric modules' members).
-- ==
-- input { 2.0f32 -1.0f32 } output { -2.0f32 }
-- input { -3.0f32 1.0f32 } output { 3.0f32 }
-- input { 1.5f32 0.0f32 } output { 1.5f32 }
entry main (a: f32) (b: f32) : f32 = f32.copysign a b
