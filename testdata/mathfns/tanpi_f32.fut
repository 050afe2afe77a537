-- f32.tanpi (issue 17: the numeric modules' members).
-- ==
-- input { 0.0f32 } output { 0.0f32 }
-- input { 0.25f32 } output { 1.0f32 }
-- input { -0.25f32 } output { -1.0f32 }
entry main (x: f32) : f32 = f32.tanpi x
