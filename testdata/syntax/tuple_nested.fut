-- Nested tuples: projections compose.
-- ==
-- input { 4i32 } output { 9i32 true }
-- input { 0i32 } output { 5i32 false }
entry main (x: i32) : (i32, bool) =
  let t = ((x, 5), (x > 0, 7))
  in ((t.0).0 + (t.0).1, (t.1).0)
