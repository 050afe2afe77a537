-- f32.from_fraction (issue 17: the numeric modules' members).
-- ==
-- input { 1i64 4i64 } output { 0.25f32 }
-- input { 3i64 2i64 } output { 1.5f32 }
-- input { -7i64 8i64 } output { -0.875f32 }
entry main (a: i64) (b: i64) : f32 = f32.from_fraction a b
