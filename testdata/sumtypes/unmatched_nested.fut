-- Exhaustiveness looks inside payloads: #some with a literal payload
-- leaves other payloads unmatched.
-- ==
-- error: Unmatched cases in match expression: #some _ _

type t = #none | #some i32 bool

def main (x: i32) : i32 =
  match (if x > 0 then #some x true else #none) : t
  case #some 1 _ -> 1
  case #none -> 0
