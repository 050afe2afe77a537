-- Ascription hides the names that the module type does not specify.
-- ==
-- error: Unknown name "m.y"

module m : { val x : i32 } = { def x = 1i32 def y = 2i32 }

def main (a: i32) = a + m.y
