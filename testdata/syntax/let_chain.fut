-- A chain of lets: `in` is optional before another let.
-- ==
-- input { 3i32 } output { 4i32 }
-- input { -1i32 } output { 0i32 }
entry main (x: i32) : i32 =
  let a = x + 1
  let b = a * 2
  in b - a
