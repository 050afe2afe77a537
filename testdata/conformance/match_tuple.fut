-- match on tuples: literals inside, names bound by the matching case,
-- wildcards, and a nested tuple.
-- ==
-- input { 1 true } output { 1 }
-- input { 1 false } output { 2 }
-- input { 5 false } output { 5 }
-- input { 9 true } output { 109 }
entry main (x: i32) (b: bool) =
  match ((x, b), x + 100)
  case ((1, true), _) -> 1
  case ((1, false), _) -> 2
  case ((_, true), y) -> y
  case ((z, _), _) -> z
