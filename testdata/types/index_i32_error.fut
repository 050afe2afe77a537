-- Indexing with an i32 is a type error: indices are i64 in Futhark.
-- ==
-- error: (i64|i32)
entry main (xs: []i32) (i: i32) : i32 = xs[i]
