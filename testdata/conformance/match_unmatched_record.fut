-- The same for records, shown with Futhark's field syntax.
-- ==
-- error: Unmatched cases in match expression: \{a=_, b=true\}

entry main (x: i32) : i32 =
  match {a = x, b = true}
  case {a = 0, b} -> if b then 1 else 2
  case {a, b = false} -> a
