-- f32.lerp (issue 17: the numeric modules' members).
-- ==
-- input { 0.0f32 10.0f32 0.25f32 } output { 2.5f32 }
-- input { 2.0f32 4.0f32 1.0f32 } output { 4.0f32 }
-- input { -1.0f32 1.0f32 0.5f32 } output { 0.0f32 }
entry main (a: f32) (b: f32) (c: f32) : f32 = f32.lerp a b c
