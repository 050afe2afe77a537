-- An argument that is consumed may not alias an argument to its right,
-- which Futhark evaluates (and observes) first.
-- ==
-- error: Argument is consumed, but aliases "xs"

def f (a: *[]i32) (b: []i32) : i32 = a[0] + b[0]

entry main (xs: *[]i32) : i32 = f xs xs
