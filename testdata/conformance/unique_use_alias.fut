-- A slice aliases its array: consuming the array makes the slice unusable.
-- ==
-- error: Using variable "xs", but this was consumed.*Possibly through aliases

entry main (xs: *[]i32) : []i32 =
  let tl = xs[1:]
  let xs[0] = 7
  in tl
