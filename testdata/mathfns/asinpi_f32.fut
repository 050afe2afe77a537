-- f32.asinpi (issue 17: the numeric modules' members).
-- ==
-- input { 0.0f32 } output { 0.0f32 }
-- input { 1.0f32 } output { 0.5f32 }
-- input { 0.5f32 } output { 0.1666666716337204f32 }
-- input { -1.0f32 } output { -0.5f32 }
entry main (x: f32) : f32 = f32.asinpi x
