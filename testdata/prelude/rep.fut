-- rep is replicate with the size taken from the context: another
-- array's size, a declared return type or an ascription.
-- ==
-- input { [1i32, 2i32, 3i32] 2i64 }
-- output { [11i32, 12i32, 13i32] [0.5f32, 0.5f32] [[7i64, 7i64], [7i64, 7i64], [7i64, 7i64]] }
def zeros [n] (_: [n]i32) : [n]f32 = rep 0.5

entry main [n] (xs: [n]i32) (k: i64) : ([n]i32, []f32, [][]i64) =
  (map2 (+) xs (rep 10), zeros (take k xs), map (\_ -> rep 7 : [k]i64) xs)
