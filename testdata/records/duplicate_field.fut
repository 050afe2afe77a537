-- A field given twice is an error.
-- ==
-- error: given twice
entry main (a: i32) : i32 = let r = {x = a, x = 1} in r.x
