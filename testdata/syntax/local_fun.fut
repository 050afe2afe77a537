-- Local functions defined with let.
-- ==
-- input { 3i32 } output { 25i32 }
-- input { -2i32 } output { 5i32 }
entry main (x: i32) : i32 =
  let sq (y: i32) = y * y
  in sq x + sq (x + 1)
