-- f32.mad (issue 17: the numeric modules' members).
-- ==
-- input { 2.0f32 3.0f32 4.0f32 } output { 10.0f32 }
-- input { 0.5f32 0.5f32 -1.0f32 } output { -0.75f32 }
entry main (a: f32) (b: f32) (c: f32) : f32 = f32.mad a b c
