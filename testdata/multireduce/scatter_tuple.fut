-- scatter into an array of tuples; the out-of-range index 5 is ignored.
-- ==
-- input { [0i32, 0i32, 0i32] [false, false, false] [2i64, 0i64, 5i64] } output { [0i32, 0i32, 20i32] [true, false, true] }
entry main (xs: *[]i32) (bs: *[]bool) (is: []i64) : ([]i32, []bool) =
  let vs = map (\i -> (i32.i64 i * 10, true)) is
  in unzip (scatter (zip xs bs) is vs)
