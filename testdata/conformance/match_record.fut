-- match on records: field shorthand binds the field, `f = p` matches it.
type point = {x: i32, y: i32}

def quadrant (p: point) : i32 =
  match p
  case {x = 0, y = 0} -> 0
  case {x = 0, y} -> if y > 0 then 5 else 6
  case {x, y = 0} -> if x > 0 then 7 else 8
  case {x, y} -> if x > 0 && y > 0 then 1 else if x < 0 && y > 0 then 2
                 else if x < 0 then 3 else 4

-- ==
-- input { [0, 0, 3, -3, 1, -1, -1, 1] [0, 2, 0, 0, 1, 1, -1, -1] }
-- output { [0, 5, 7, 8, 1, 2, 3, 4] }
entry main (xs: []i32) (ys: []i32) = map2 (\x y -> quadrant {x, y}) xs ys
