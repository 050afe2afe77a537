-- A decimal literal beside an f32 operand is an f32.
-- ==
-- input { 1.0f32 } output { 1.5f32 }
entry main (x: f32) : f32 = x + 0.5
