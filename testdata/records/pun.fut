-- {x, y} takes the variables x and y.
-- ==
-- input { 3i32 4i32 } output { 7i32 }
entry main (x: i32) (y: i32) : i32 = let r = {x, y} in r.x + r.y
