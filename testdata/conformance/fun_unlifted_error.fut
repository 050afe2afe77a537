-- An ordinary type parameter ('a) may not stand for a function type.
-- ==
-- error: a function is not allowed here

def twice 'a (x: a) : (a, a) = (x, x)
entry main (x: i32) = let _p = twice (+ 1) in x
