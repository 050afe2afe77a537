-- A mistyped argument names the function and the argument, as Futhark's
-- "Cannot apply" does.
-- ==
-- error: Cannot apply "scale" to "flag"
def scale (k: f32) (x: f32) = k * x
entry main (flag: bool) (x: f32) = scale 2f32 flag + x
