-- ... nor may an argument to its left, evaluated after it, use what it
-- consumed.
-- ==
-- error: Using variable "xs", but this was consumed

def f (a: []i32) (b: *[]i32) : i32 = a[0] + b[0]

entry main (xs: *[]i32) : i32 = f xs xs
