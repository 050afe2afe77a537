-- A recursive function (the result type is given, as Futhark requires).
def fact (n: i64) : i64 = if n <= 1 then 1 else n * fact (n - 1)

-- ==
-- input { 0i64 } output { 1i64 }
-- input { 5i64 } output { 120i64 }
-- input { 20i64 } output { 2432902008176640000i64 }
-- input { 21i64 } output { -4249290049419214848i64 }
entry main (n: i64) : i64 = fact n
