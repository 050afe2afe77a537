-- In a tuple, a literal in one component leaves the others' values open.
-- ==
-- error: Unmatched cases in match expression: \(_, true\)

entry main (x: i32) (b: bool) : i32 =
  match (x, b)
  case (0, true) -> 1
  case (_, false) -> 2
