-- zip4 and unzip4 are inverses.
-- ==
-- input { [1i32, 2i32] [true, false] [3f64, 4f64] [5u8, 6u8] } output { [1i32, 2i32] [true, false] [3f64, 4f64] [5u8, 6u8] }
entry main (a: []i32) (b: []bool) (c: []f64) (d: []u8) : ([]i32, []bool, []f64, []u8) = unzip4 (zip4 a b c d)
