-- A function that consumes its argument may not be passed to another
-- function.
-- ==
-- error: Argument of functional type .* contains consumption

def twice 'a (f: a -> a) (x: a) : a = f (f x)
def bump (xs: *[]i32) : *[]i32 = xs with [0] = xs[0] + 1

entry main (arr: *[]i32) : []i32 = twice bump arr
