-- Record patterns in let and in parameters.
-- ==
-- input { 5i32 6i32 } output { 11i32 30i32 }
def mul ({a, b}: {a: i32, b: i32}) : i32 = a * b
entry main (x: i32) (y: i32) : (i32, i32) = let {a = p, b = q} = {b = y, a = x} in (p + q, mul {a = x, b = y})
