-- tabulate n f is map f (iota n).
-- ==
-- input { 4i64 } output { [0i64, 1i64, 4i64, 9i64] }
-- input { 0i64 } output { empty([0]i64) }
entry main (n: i64) : []i64 = tabulate n (\i -> i * i)
