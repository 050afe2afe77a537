-- A lifted sum type whose constructors carry functions: the inactive
-- payload of a function type is a blank function that the case not taken
-- applies, never reached at run time.
-- ==
-- input { [1, 2, 3] 2 } output { [3, 4, 5] [2, 4, 6] 7 }

type^ op = #add i32 | #scale (i32 -> i32) | #apply (i32 -> i32) i32

def run (o: op) (x: i32) : i32 =
  match o
  case #add k -> x + k
  case #scale f -> f x
  case #apply f k -> f (x + k)

entry main (xs: []i32) (k: i32) : ([]i32, []i32, i32) =
  (map (run (#add k)) xs, map (run (#scale (* k))) xs, run (#apply (\y -> y * 2 + 1) 1) k)
