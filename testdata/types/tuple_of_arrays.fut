-- A function returning a tuple of arrays.
def split_sign (xs: []i32) : ([]i32, []i32) =
  (filter (> 0) xs, filter (< 0) xs)

-- ==
-- input { [1i32, -2i32, 3i32, -4i32, 0i32] } output { [1i32, 3i32] [-2i32, -4i32] }
entry main (xs: []i32) : ([]i32, []i32) = split_sign xs
