-- filter over an array of tuples.
-- ==
-- input { [1i32, 2i32, 3i32, 4i32] [true, false, false, true] } output { [1i32, 4i32] [true, true] }
-- input { [1i32] [false] } output { empty([0]i32) empty([0]bool) }
entry main (xs: []i32) (bs: []bool) : ([]i32, []bool) = unzip (filter (.1) (zip xs bs))
