-- f32.acospi (issue 17: the numeric modules' members).
-- ==
-- input { 1.0f32 } output { 0.0f32 }
-- input { 0.0f32 } output { 0.5f32 }
-- input { -1.0f32 } output { 1.0f32 }
-- input { 0.5f32 } output { 0.3333333432674408f32 }
entry main (x: f32) : f32 = f32.acospi x
