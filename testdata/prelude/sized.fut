-- sized gives an array a size.
-- ==
-- input { [1i32, 2i32, 3i32] } output { [1i32, 2i32, 3i32] }
entry main [n] (xs: [n]i32) : [n]i32 = sized n xs
