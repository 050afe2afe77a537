-- f32.gamma (issue 17: the numeric modules' members).
-- ==
-- input { 1.0f32 } output { 1.0f32 }
-- input { 5.0f32 } output { 24.0f32 }
-- input { 0.5f32 } output { 1.7724539041519165f32 }
-- input { 3.5f32 } output { 3.3233509063720703f32 }
entry main (x: f32) : f32 = f32.gamma x
