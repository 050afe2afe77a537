-- A loop parameter that holds a function is rejected, as in Futhark.
-- ==
-- error: a loop parameter may not be of function type

def inc (x: i32) = x + 1
entry main (x: i32) = (loop (f, y) = (inc, x) for i < 3 do (f, f y)).1
