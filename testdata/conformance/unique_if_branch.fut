-- A consumption in either branch of an if counts after it.
-- ==
-- error: Using variable "xs", but this was consumed

entry main (b: bool) (xs: *[]i32) : i32 =
  let ys = if b then xs with [0] = 1 else [1, 2, 3]
  in ys[0] + xs[0]
