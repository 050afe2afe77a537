-- Accessing a field a record does not have is a type error.
-- ==
-- error: no field z
entry main (a: i32) : i32 = let r = {x = a} in r.z
