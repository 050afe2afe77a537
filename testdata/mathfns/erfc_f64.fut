-- f64.erfc (issue 17: the numeric modules' members).
-- ==
-- input { 0.0f64 } output { 1.0f64 }
-- input { 0.5f64 } output { 0.4795001221869535f64 }
-- input { -1.0f64 } output { 1.842700792949715f64 }
-- input { 2.0f64 } output { 0.004677734981047265f64 }
entry main (x: f64) : f64 = f64.erfc x
