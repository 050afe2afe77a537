-- An operator section (+) is a two-argument function.
-- ==
-- input { [1i32, 2i32, 3i32] [4i32, 5i32, 6i32] } output { [5i32, 7i32, 9i32] 720i32 }
entry main (xs: []i32) (ys: []i32) : ([]i32, i32) =
  (map2 (+) xs ys, reduce (*) 1 (xs ++ ys))
