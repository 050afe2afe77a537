-- Tuples and projection with .0 and .1.
-- ==
-- input { 3i32 2.5f64 } output { 2.5f64 3i32 }
-- input { -1i32 0.0f64 } output { 0.0f64 -1i32 }
entry main (x: i32) (y: f64) : (f64, i32) =
  let t = (x, y)
  in (t.1, t.0)
