-- Deep recursion is a run-time error, not a crash.
def depth (n: i64) : i64 = if n == 0 then 0 else 1 + depth (n - 1)

-- ==
-- input { 1000i64 } output { 1000i64 }
-- input { 100000000i64 } error: (recursion|stack|depth|deep)
entry main (n: i64) : i64 = depth n
