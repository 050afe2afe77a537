-- A type parameter is rigid inside the function: it cannot be used as a
-- number.
-- ==
-- error: .

entry main (x: i32) : i32 =
  let inc 'a (y: a) : a = y + 1
  in inc x
