-- zip5 and unzip5 are inverses; the fifth component survives a filter.
-- ==
-- input { [1i32, 2i32, 3i32] } output { [1i32, 3i32] [2i32, 6i32] [true, true] [1i64, 3i64] [0.5f32, 1.5f32] }
entry main (xs: []i32) : ([]i32, []i32, []bool, []i64, []f32) =
  let ys = zip5 xs (map (* 2) xs) (map (\x -> x % 2 == 1) xs) (map i64.i32 xs) (map (\x -> f32.i32 x / 2) xs)
  in unzip5 (filter (.2) ys)
