-- f32.erf (issue 17: the numeric modules' members).
-- ==
-- input { 0.0f32 } output { 0.0f32 }
-- input { 0.5f32 } output { 0.5204998850822449f32 }
-- input { -1.0f32 } output { -0.8427007794380188f32 }
-- input { 2.0f32 } output { 0.9953222870826721f32 }
entry main (x: f32) : f32 = f32.erf x
