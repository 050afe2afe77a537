-- ... nor may a later argument use what an earlier one consumed.
-- ==
-- error: Using variable "xs", but this was consumed

def f (a: *[]i32) (b: []i32) : i32 = a[0] + b[0]

entry main (xs: *[]i32) : i32 = f xs xs
