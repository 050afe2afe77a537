-- f32.cospi (issue 17: the numeric modules' members).
-- ==
-- input { 0.0f32 } output { 1.0f32 }
-- input { 1.0f32 } output { -1.0f32 }
-- input { 0.25f32 } output { 0.7071067690849304f32 }
-- input { 2.0f32 } output { 1.0f32 }
entry main (x: f32) : f32 = f32.cospi x
