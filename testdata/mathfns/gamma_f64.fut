-- f64.gamma (issue 17: the numeric modules' members).
-- ==
-- input { 1.0f64 } output { 1.0f64 }
-- input { 5.0f64 } output { 24.0f64 }
-- input { 0.5f64 } output { 1.7724538509055159f64 }
-- input { 3.5f64 } output { 3.323350970447842f64 }
entry main (x: f64) : f64 = f64.gamma x
