-- Enumerations: constructors without payloads, in tuples and nested
-- patterns with literals, compared with == and != and chosen by if.
-- ==
-- input { [0, 1, 2, 3] } output { [1, 12, 20, 3] [true, false, false, true] }

type colour = #red | #green | #blue | #black

def of_int (i: i32) : colour =
  if i == 0 then #red else if i == 1 then #green else if i == 2 then #blue else #black

def score (c: colour) (n: i32) : i32 =
  match (c, n)
  case (#red, _) -> 1
  case (#green, 1) -> 12
  case (#blue, m) -> m * 10
  case (#black, m) -> m
  case (#green, _) -> 0

entry main (xs: []i32) : ([]i32, []bool) =
  let cs = map of_int xs
  in (map2 score cs xs, map (\c -> c == #red || (c != #green && c != #blue)) cs)
