-- f32.atan2pi (issue 17: the numeric modules' members).
-- ==
-- input { 1.0f32 1.0f32 } output { 0.25f32 }
-- input { 1.0f32 -1.0f32 } output { 0.75f32 }
-- input { 0.0f32 1.0f32 } output { 0.0f32 }
entry main (a: f32) (b: f32) : f32 = f32.atan2pi a b
