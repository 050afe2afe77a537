-- flatmap (Futhark 0.27): f gives an array (of any size) and another
-- value per element; the result is the segment sizes, the segment-start
-- flags, the offsets, the concatenated data and the other values.
-- ==
-- input { [2i64, 0i64, 3i64] }
-- output { [2i64, 0i64, 3i64] [true, false, true, false, false] [0i64, 2i64, 2i64] [0i64, 1i64, 0i64, 1i64, 2i64] [4i64, 0i64, 6i64] }
-- input { empty([0]i64) }
-- output { empty([0]i64) empty([0]bool) empty([0]i64) empty([0]i64) empty([0]i64) }
entry main (ns: []i64) = flatmap (\n -> (iota n, n * 2)) ns
