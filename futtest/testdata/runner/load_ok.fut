-- The program should fail to load but does not.
-- ==
-- error: anything
entry main (x: i32) : i32 = x
