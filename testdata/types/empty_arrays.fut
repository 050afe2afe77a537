-- Empty arrays in and out.
-- ==
-- input { empty([0]i32) } output { empty([0]i32) 0i64 0i32 }
-- input { [7i32] } output { [8i32] 1i64 7i32 }
entry main (xs: []i32) : ([]i32, i64, i32) = (map (+1) xs, length xs, reduce (+) 0 xs)
