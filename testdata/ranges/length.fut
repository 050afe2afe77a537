-- The length of a range is its number of elements.
-- ==
-- input { 0i64 100i64 7i64 } output { 15i64 }
entry main (a: i64) (b: i64) (s: i64) : i64 = length (a..(a + s)..<b)
