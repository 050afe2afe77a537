-- f64.erf (issue 17: the numeric modules' members).
-- ==
-- input { 0.0f64 } output { 0.0f64 }
-- input { 0.5f64 } output { 0.5204998778130465f64 }
-- input { -1.0f64 } output { -0.8427007929497149f64 }
-- input { 2.0f64 } output { 0.9953222650189527f64 }
entry main (x: f64) : f64 = f64.erf x
