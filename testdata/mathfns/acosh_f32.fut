-- f32.acosh (issue 17: the numeric modules' members).
-- ==
-- input { 1.0f32 } output { 0.0f32 }
-- input { 2.0f32 } output { 1.316957950592041f32 }
-- input { 10.0f32 } output { 2.993222951889038f32 }
entry main (x: f32) : f32 = f32.acosh x
