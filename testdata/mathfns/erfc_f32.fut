-- f32.erfc (issue 17: the numeric modules' members).
-- ==
-- input { 0.0f32 } output { 1.0f32 }
-- input { 0.5f32 } output { 0.4795001149177551f32 }
-- input { -1.0f32 } output { 1.8427008390426636f32 }
-- input { 2.0f32 } output { 0.004677734803408384f32 }
entry main (x: f32) : f32 = f32.erfc x
