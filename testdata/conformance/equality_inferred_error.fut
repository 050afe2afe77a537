-- A function whose operands of == are left open by inference is not made
-- polymorphic over them: their type must be known, as in Futhark.
-- ==
-- error: does not support equality

def differ a b = a != b

entry main (x: f32) = differ x 1
