-- An entry point may not return a tuple holding a function.
-- ==
-- error: Entry point functions may not be higher-order

def inc (x: i32) = x + 1
entry main (x: i32) = (inc, x)
