-- The program must fail to load, and does.
-- ==
-- error: unknown name
entry main (x: i32) : i32 = x + nope
