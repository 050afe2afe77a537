-- Using an undefined name is a static error that names it.
-- ==
-- error: no_such_name
entry main (x: i32) : i32 = x + no_such_name
