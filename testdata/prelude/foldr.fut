-- foldr folds from the right: 1 - (2 - (3 - 10)).
-- ==
-- input { [1i32, 2i32, 3i32] } output { -8i32 }
-- input { empty([0]i32) } output { 10i32 }
entry main (xs: []i32) : i32 = foldr (-) 10 xs
