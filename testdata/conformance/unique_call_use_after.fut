-- An array passed for a consuming parameter cannot be used afterwards.
-- ==
-- error: Using variable "xs", but this was consumed

def zero_first (a: *[]i32) : *[]i32 = a with [0] = 0

entry main (xs: *[]i32) : i32 =
  let ys = zero_first xs
  in ys[0] + xs[0]
