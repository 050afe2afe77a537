-- A parameter without `*` is observed, not owned: updating it in place
-- is rejected.
-- ==
-- error: Consuming variable "xs", which is not consumable

entry main (xs: []i32) (i: i64) : []i32 =
  let xs[i] = 0
  in xs
