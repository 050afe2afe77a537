-- A loop whose body updates its parameter in place consumes the initial
-- value: here an observed parameter.
-- ==
-- error: Consuming variable "xs", which is not consumable

entry main (n: i64) (xs: []i32) : []i32 =
  loop acc = xs for i < n do acc with [i] = 0
