-- An update of a tuple element that is not there is an error.
-- ==
-- error: tuple of type \(i64, bool\) has no element 2
entry main (n: i64) = (n, true) with 2 = 0i64
