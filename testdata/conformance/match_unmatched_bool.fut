-- true alone leaves false unmatched.
-- ==
-- error: Unmatched cases in match expression: false

entry main (b: bool) : i32 =
  match b
  case true -> 1
