-- The projection section (.1) picks a tuple component.
-- ==
-- input { [1i32, 2i32] [true, false] } output { [true, false] [1i32, 2i32] }
entry main (xs: []i32) (bs: []bool) : ([]bool, []i32) =
  let ps = zip xs bs
  in (map (.1) ps, map (.0) ps)
