-- Tuple patterns in let and in function parameters.
def swap (a: i32, b: i32) : (i32, i32) = (b, a)

-- ==
-- input { 5i32 } output { 10i32 6i32 -4i32 }
-- input { 0i32 } output { 0i32 1i32 1i32 }
entry main (x: i32) : (i32, i32, i32) =
  let (a, b) = (x + 1, x * 2)
  let (c, d) = swap (a, b)
  in (c, d, d - c)
