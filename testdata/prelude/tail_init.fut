-- tail drops the first element, init the last.
-- ==
-- input { [1u8, 2u8, 3u8] } output { [2u8, 3u8] [1u8, 2u8] }
-- input { [1u8] } output { empty([0]u8) empty([0]u8) }
entry main (xs: []u8) : ([]u8, []u8) = (tail xs, init xs)
