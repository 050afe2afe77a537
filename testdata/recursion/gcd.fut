-- Euclid's algorithm by recursion.
def gcd (a: i64) (b: i64) : i64 = if b == 0 then a else gcd b (a % b)

-- ==
-- input { 48i64 18i64 } output { 6i64 }
-- input { 17i64 5i64 } output { 1i64 }
-- input { 0i64 9i64 } output { 9i64 }
entry main (a: i64) (b: i64) : i64 = gcd a b
