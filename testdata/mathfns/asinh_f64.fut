-- f64.asinh (issue 17: the numeric modules' members).
-- ==
-- input { 0.0f64 } output { 0.0f64 }
-- input { 1.0f64 } output { 0.881373587019543f64 }
-- input { -2.0f64 } output { -1.4436354751788103f64 }
-- input { 10.0f64 } output { 2.99822295029797f64 }
entry main (x: f64) : f64 = f64.asinh x
