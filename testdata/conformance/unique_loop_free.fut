-- A loop body may not consume a variable bound outside the loop.
-- ==
-- error: Consuming variable "ys", which is not consumable

entry main (n: i64) (xs: *[]i32) : i32 =
  let ys = copy xs
  in loop s = 0 for i < n do
       let zs = ys with [i] = 1
       in s + zs[i]
