-- A loop that consumes its initial value may not read that value in its
-- body.
-- ==
-- error: Loop body uses variable "xs" \(or an alias\), but this is consumed by the initial loop argument

entry main (n: i64) (xs: *[]i32) : []i32 =
  loop acc = xs for i < n do acc with [i] = xs[0]
