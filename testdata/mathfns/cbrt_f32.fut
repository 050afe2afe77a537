-- f32.cbrt (issue 17: the numeric modules' members).
-- ==
-- input { 27.0f32 } output { 3.0f32 }
-- input { -8.0f32 } output { -2.0f32 }
-- input { 2.0f32 } output { 1.2599210739135742f32 }
-- input { 0.0f32 } output { 0.0f32 }
entry main (x: f32) : f32 = f32.cbrt x
