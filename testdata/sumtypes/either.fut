-- A polymorphic sum type applied to itself in its arguments (not a
-- cycle), matched to depth three.
-- ==
-- input { 4 } output { 5 }
-- input { -2 } output { 1 }

type either 'a 'b = #left a | #right b
type nested = either bool (either (either i32 i32) i32)

def classify (x: i32) : nested =
  if x > 0 then #right (#left (#right x))
  else if x < 0 then #right (#right (-x))
  else #left true

entry main (x: i32) : i32 =
  match classify x
  case #left true -> 0
  case #left false -> -1
  case #right (#left (#left y)) -> y
  case #right (#left (#right y)) -> y + 1
  case #right (#right y) -> y - 1
