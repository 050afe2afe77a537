-- Local opens with conversions and constants of the opened module: inside
-- f64.(...), i64 means f64.i64 and sqrt f64.sqrt.
-- ==
-- input { 9i64 } output { 3.5f64 4i64 }
entry main (n: i64) = (f64.(sqrt (i64 n) + 0.5), i64.(max n 4 - 5))
