-- An array of tuples of functions is rejected, as in Futhark.
-- ==
-- error: found to be functional

def inc (x: i32) = x + 1
entry main (x: i32) = let fs = [(inc, 1)] in fs[0].0 x
