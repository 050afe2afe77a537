-- A constructor pattern in a let whose type has other constructors is
-- not irrefutable: Futhark rejects it as an unmatched match.
-- ==
-- error: Unmatched cases in match expression: #none

type opt = #none | #some i32

entry main (a: i32) : i32 =
  let #some b = #some a : opt
  in b
