-- String literals of equal length make a [][]u8; a string passed to a
-- function taking []u8.
def len (s: []u8) : i64 = length s

-- ==
-- input { } output { [[97u8, 98u8], [99u8, 100u8]] 5i64 }
entry main = (["ab", "cd"], len "hello")
