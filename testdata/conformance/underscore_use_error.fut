-- A name that starts with an underscore says its value is unused: using
-- it is an error, as in Futhark.
-- ==
-- error: Use of "_count": variables prefixed with underscore may not be accessed

entry main (xs: []i32) =
  let (_count, total) = (length xs, i32.sum xs)
  in total + i32.i64 _count
