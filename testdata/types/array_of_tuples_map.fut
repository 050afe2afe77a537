-- map over an array of tuples, producing an array of tuples.
-- ==
-- input { [1i32, 2i32, 3i32] } output { [3i32, 2i32, 1i32] [1i32, 4i32, 9i32] }
entry main (xs: []i32) : ([]i32, []i32) =
  let ps = map (\x -> (x, x * x)) xs
  let qs = map (\(a, b) -> (4 - a, b)) ps
  in unzip qs
