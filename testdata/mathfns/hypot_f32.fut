-- f32.hypot (issue 17: the numeric modules' members).
-- ==
-- input { 3.0f32 4.0f32 } output { 5.0f32 }
-- input { 5.0f32 12.0f32 } output { 13.0f32 }
-- input { -1.0f32 0.0f32 } output { 1.0f32 }
entry main (a: f32) (b: f32) : f32 = f32.hypot a b
