-- The new value of a consuming loop parameter may not alias an array
-- bound outside the loop.
-- ==
-- error: Return value for consuming loop parameter "acc" aliases "xs"

entry main (n: i64) (xs: []i32) (ys: *[]i32) : []i32 =
  loop acc = ys for i < n do
    let acc[0] = 1
    in xs
