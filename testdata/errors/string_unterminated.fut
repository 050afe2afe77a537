-- A string literal must close on its line.
-- ==
-- error: 5:11: malformed string literal
entry main : []u8 =
  let s = "abc in s
