-- f64.log1p (issue 17: the numeric modules' members).
-- ==
-- input { 0.0f64 } output { 0.0f64 }
-- input { 1e-10f64 } output { 9.999999999500001e-11f64 }
-- input { 1.0f64 } output { 0.6931471805599453f64 }
-- input { 9.0f64 } output { 2.302585092994046f64 }
entry main (x: f64) : f64 = f64.log1p x
