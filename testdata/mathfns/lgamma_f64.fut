-- f64.lgamma (issue 17: the numeric modules' members).
-- ==
-- input { 1.0f64 } output { 0.0f64 }
-- input { 5.0f64 } output { 3.178053830347945f64 }
-- input { 0.5f64 } output { 0.5723649429247004f64 }
-- input { 10.0f64 } output { 12.801827480081467f64 }
entry main (x: f64) : f64 = f64.lgamma x
