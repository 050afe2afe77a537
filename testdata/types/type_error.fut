-- Adding an i32 to an i64 is a type error: there are no implicit conversions.
-- ==
-- error: (i32.*i64|i64.*i32)
entry main (x: i32) (y: i64) = x + y
