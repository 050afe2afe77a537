-- A let may shadow an earlier name, including a parameter.
-- ==
-- input { 3i32 } output { 8i32 }
entry main (x: i32) : i32 =
  let x = x + 1
  let x = x * 2
  in x
