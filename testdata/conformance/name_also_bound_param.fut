-- Nor may a function's parameters.
-- ==
-- error: Name "x" also bound at

def pick (x: i32) (x: i32) : i32 = x

entry main (y: i32) : i32 = pick y y
