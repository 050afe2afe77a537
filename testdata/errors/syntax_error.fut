-- A syntax error is reported when the program is loaded.
-- ==
-- error: .
entry main (x: i32) : i32 = x +
