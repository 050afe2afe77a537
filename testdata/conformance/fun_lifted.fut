-- Lifted type parameters ('^a) may stand for functions and for tuples
-- that hold them; the prelude's id, const, flip, curry and uncurry are
-- lifted as in Futhark.
-- ==
-- input { 3i32 } output { 4i32 6i32 1i32 7i32 [6i32, 8i32] }

def apply_to '^f 'b (g: f) (k: f -> b) : b = k g

entry main (x: i32) =
  (apply_to (+ 1) (\h -> h x),
   const (* 2) true x,
   flip (\(a: i32) (b: i32) -> a - b) 1 2,
   (id ((+ 4), x)).0 x,
   map (id (* 2)) [x, x + 1])
