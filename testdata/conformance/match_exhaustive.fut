-- Matches that cover every value: both booleans, a final name or
-- wildcard, and tuples whose rows together cover every combination.
-- ==
-- entry: bools
-- input { true false } output { 2i32 }
-- input { false false } output { 4i32 }
entry bools (a: bool) (b: bool) : i32 =
  match (a, b)
  case (true, true) -> 1
  case (true, false) -> 2
  case (false, _) -> 4

-- ==
-- entry: numbers
-- input { 0i32 } output { 10i32 }
-- input { 7i32 } output { 7i32 }
entry numbers (x: i32) : i32 =
  match x
  case 0 -> 10
  case y -> y

-- ==
-- entry: records
-- input { 3i32 } output { 3i32 }
entry records (x: i32) : i32 =
  match {a = x, b = x > 2}
  case {a = 0, b = _} -> 0
  case {a, b = true} -> a
  case {a = _, b = false} -> -1
