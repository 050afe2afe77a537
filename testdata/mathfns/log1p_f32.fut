-- f32.log1p (issue 17: the numeric modules' members).
-- ==
-- input { 0.0f32 } output { 0.0f32 }
-- input { 1.000000013351432e-10f32 } output { 1.000000013351432e-10f32 }
-- input { 1.0f32 } output { 0.6931471824645996f32 }
-- input { 9.0f32 } output { 2.3025851249694824f32 }
entry main (x: f32) : f32 = f32.log1p x
