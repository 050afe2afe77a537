-- A lambda may not consume a variable bound outside it, even a unique
-- one: it may run any number of times.
-- ==
-- error: Consuming variable "xs", which is not consumable

entry main (xs: *[]i32) : []i32 =
  map (\i -> let ys = xs with [i] = 0 in ys[0]) (indices xs)
