-- f64.from_fraction (issue 17: the numeric modules' members).
-- ==
-- input { 1i64 4i64 } output { 0.25f64 }
-- input { 3i64 2i64 } output { 1.5f64 }
-- input { -7i64 8i64 } output { -0.875f64 }
entry main (a: i64) (b: i64) : f64 = f64.from_fraction a b
