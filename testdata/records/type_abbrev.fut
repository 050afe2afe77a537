-- A record type abbreviation and functions on it.
-- ==
-- input { 3.0f64 4.0f64 } output { 5.0f64 }
type point = {x: f64, y: f64}
def norm (p: point) : f64 = f64.sqrt (p.x * p.x + p.y * p.y)
entry main (x: f64) (y: f64) : f64 = norm {x, y}
