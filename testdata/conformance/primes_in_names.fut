-- Names may contain primes and underscores after the first letter.
def f' (x: i32) = x + 1
def f'' (x: i32) = f' (f' x)

-- ==
-- input { 1 } output { 3 4 }
entry main (x_1: i32) = let x' = f'' x_1 let x'_2 = x' + 1 in (x', x'_2)
