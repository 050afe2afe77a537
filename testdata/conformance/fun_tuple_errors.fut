-- Where Futhark forbids functions (in arrays, in if results, as loop
-- parameters, in entry points), the error says so with Futhark's text.
-- ==
-- error: if-results may not be of function type

def inc (x: i32) = x + 1
entry main (b: bool) (x: i32) =
  let (f, y) = if b then (inc, 1) else (inc, 2)
  in f x + y
