-- A built-in operator may be redefined (Futhark's language reference:
-- "a new + can be defined"); later uses of it, infix and as a section,
-- call the new definition, which keeps the built-in's precedence.
def add (x: i32) (y: i32) = x + y

def (+) (x: i32) (y: i32) = x - y

-- ==
-- input { 10 3 } output { 7 4 [9, 8] 13 -5 }
entry main (a: i32) (b: i32) =
  (a + b, a + b + b, map (+ 1) [10, 9], add a b, a + b * 5)
