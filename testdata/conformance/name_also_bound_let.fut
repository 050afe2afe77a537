-- A let pattern may not bind one name twice.
-- ==
-- error: Name "a" also bound at

entry main (x: i32) : i32 =
  let (a, a) = (x, x + 1)
  in a
