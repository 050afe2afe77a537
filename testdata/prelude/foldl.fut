-- foldl folds from the left: ((10 - 1) - 2) - 3.
-- ==
-- input { [1i32, 2i32, 3i32] } output { 4i32 }
-- input { empty([0]i32) } output { 10i32 }
entry main (xs: []i32) : i32 = foldl (-) 10 xs
