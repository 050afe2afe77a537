-- f64.nextafter: the next representable value towards y (issue 17).
-- ==
-- input { 1.0f64 2.0f64 } output { 1.0000000000000002f64 }
-- input { 1.0f64 0.0f64 } output { 0.9999999999999999f64 }
-- input { 0.0f64 1.0f64 } output { 5e-324f64 }
-- input { -2.0f64 -3.0f64 } output { -2.0000000000000004f64 }
entry main (a: f64) (b: f64) : f64 = f64.nextafter a b
