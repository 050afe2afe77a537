-- Converting a signed integer to a wider unsigned type zero-extends it
-- (issue 17, bug 2).
-- ==
-- input { [-1i8, -128i8, 5i8] } output { [255u16, 128u16, 5u16] [255u64, 128u64, 5u64] [-1i32, -128i32, 5i32] }
entry main (xs: []i8) : ([]u16, []u64, []i32) = (map u16.i8 xs, map u64.i8 xs, map i32.i8 xs)
