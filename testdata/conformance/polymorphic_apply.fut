-- Inferred polymorphism through a higher-order parameter.
-- ==
-- input { 3i32 } output { 4i32 false }
def apply f x = f x
entry main (x: i32) : (i32, bool) = (apply (+ 1) x, apply (\b -> !b) true)
