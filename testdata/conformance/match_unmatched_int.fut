-- A match must cover every value: numeric literals alone never do.
-- ==
-- error: Unmatched cases in match expression

entry main (x: i32) : i32 =
  match x
  case 0 -> 10
  case 1 -> 20
