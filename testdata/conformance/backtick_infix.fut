-- A function name in backticks is an infix operator that binds more
-- loosely than every other operator (`|>` included), left to right; with
-- one operand it is a section.
def minus (x: i32) (y: i32) = x - y

-- ==
-- input { 10 3 } output { 7 4 -7 7 [8, 7] [-8, -7] 10 2 }
entry main (a: i32) (b: i32) =
  (a `minus` b,
   a `minus` b `minus` b,
   b `minus` a |> (+ 0),
   (a `minus` b) |> (+ 0),
   map (a `minus`) [2, 3],
   map (`minus` a) [2, 3],
   a `i32.max` b,
   (b - 1) `i32.min` (a - 1))
