-- f64.acosh (issue 17: the numeric modules' members).
-- ==
-- input { 1.0f64 } output { 0.0f64 }
-- input { 2.0f64 } output { 1.3169578969248166f64 }
-- input { 10.0f64 } output { 2.993222846126381f64 }
entry main (x: f64) : f64 = f64.acosh x
