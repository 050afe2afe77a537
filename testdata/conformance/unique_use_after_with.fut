-- After `xs with [i] = v` the old xs is consumed: using it is an error.
-- ==
-- error: Using variable "xs", but this was consumed at 6:12

entry main (xs: *[]i32) : i32 =
  let ys = xs with [0] = 1
  in ys[0] + xs[1]
