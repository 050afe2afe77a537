-- f32.rsqrt (issue 17: the numeric modules' members).
-- ==
-- input { 4.0f32 } output { 0.5f32 }
-- input { 16.0f32 } output { 0.25f32 }
-- input { 2.0f32 } output { 0.7071067690849304f32 }
entry main (x: f32) : f32 = f32.rsqrt x
