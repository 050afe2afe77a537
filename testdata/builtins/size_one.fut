-- SOACs on arrays of one element.
-- ==
-- input { [5i32] } output { [6i32] 5i32 [5i32] [5i32] [5i32] [5i32] [1i32] }
entry main (xs: []i32) : ([]i32, i32, []i32, []i32, []i32, []i32, []i32) =
  (map (+1) xs, reduce (+) 0 xs, scan (+) 0 xs, filter (> 0) xs, reverse xs, rotate 3 xs, hist (+) 0 1 [0] [1])
