-- f32.atanh (issue 17: the numeric modules' members).
-- ==
-- input { 0.0f32 } output { 0.0f32 }
-- input { 0.5f32 } output { 0.5493061542510986f32 }
-- input { -0.25f32 } output { -0.2554128170013428f32 }
entry main (x: f32) : f32 = f32.atanh x
