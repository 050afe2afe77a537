-- iota of a negative number is an error.
-- ==
-- input { 3i64 } output { 3i64 }
-- input { -3i64 } error: (negative|invalid|iota)
entry main (n: i64) : i64 = length (iota n)
