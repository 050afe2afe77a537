-- A match that leaves a constructor unmatched is rejected, as in Futhark.
-- ==
-- error: Unmatched cases in match expression: #bar _

type t = #foo i32 | #bar i32 | #baz

def main (x: i32) : i32 =
  match (#foo x) : t
  case #foo y -> y
  case #baz -> 0
