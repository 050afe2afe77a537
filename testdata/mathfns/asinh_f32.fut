-- f32.asinh (issue 17: the numeric modules' members).
-- ==
-- input { 0.0f32 } output { 0.0f32 }
-- input { 1.0f32 } output { 0.8813735842704773f32 }
-- input { -2.0f32 } output { -1.4436354637145996f32 }
-- input { 10.0f32 } output { 2.998223066329956f32 }
entry main (x: f32) : f32 = f32.asinh x
