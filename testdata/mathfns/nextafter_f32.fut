-- f32.nextafter: the next representable value towards y (issue 17).
-- ==
-- input { 1.0f32 2.0f32 } output { 1.0000001192092896f32 }
-- input { 1.0f32 0.0f32 } output { 0.9999999403953552f32 }
-- input { 0.0f32 1.0f32 } output { 1.401298464324817e-45f32 }
-- input { -2.0f32 -3.0f32 } output { -2.000000238418579f32 }
entry main (a: f32) (b: f32) : f32 = f32.nextafter a b
