-- A size parameter is in scope as an i64 value.
def len [n] (xs: [n]i32) : i64 = n

-- ==
-- input { [5i32, 6i32, 7i32] } output { 3i64 }
-- input { empty([0]i32) } output { 0i64 }
entry main (xs: []i32) : i64 = len xs
