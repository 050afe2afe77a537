-- The loop parameter shadows an outer variable of the same name.
-- ==
-- input { 3i32 } output { 3i32 6i32 }
entry main (x: i32) : (i32, i32) =
  let y = loop x = x for _i < 3 do x + 1
  in (x, y)
