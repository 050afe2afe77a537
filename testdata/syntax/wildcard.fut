-- The wildcard pattern _ ignores a component.
-- ==
-- input { 7i32 } output { 14i32 }
entry main (x: i32) : i32 =
  let (_, b, _) = (x, x * 2, x * 3)
  in b
