-- Updating an element of an array of tuples.
-- ==
-- input { [1i32, 2i32] [true, true] } output { [1i32, 9i32] [true, false] }
entry main (xs: []i32) (bs: []bool) : ([]i32, []bool) =
  let ps = zip xs bs
  let qs = map (\p -> p) ps
  let qs[1] = (9, false)
  in unzip qs
