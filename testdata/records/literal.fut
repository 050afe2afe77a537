-- Record literals and field access; fields may be written in any order.
-- ==
-- input { 1i32 2.5f64 } output { 1i32 2.5f64 }
entry main (a: i32) (b: f64) : (i32, f64) = let r = {y = b, x = a} in (r.x, r.y)
