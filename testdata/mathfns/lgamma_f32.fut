-- f32.lgamma (issue 17: the numeric modules' members).
-- ==
-- input { 1.0f32 } output { 0.0f32 }
-- input { 5.0f32 } output { 3.178053855895996f32 }
-- input { 0.5f32 } output { 0.5723649263381958f32 }
-- input { 10.0f32 } output { 12.801827430725098f32 }
entry main (x: f32) : f32 = f32.lgamma x
