-- A function type may name its parameter so that sizes after it refer
-- to it: `(k: i64) -> [k]t`. arepl checks such sizes loosely (as an
-- existential's), so the result size is taken as unknown.
-- ==
-- input { 3i64 } output { [7i32, 7i32, 7i32] 3i64 }
-- input { 0i64 } output { empty([0]i32) 0i64 }
type^ maker = (k: i64) -> [k]i32
def make : maker = \k -> replicate k 7
def total (count: (m: i64) -> [m]i64 -> i64) (n: i64) = count n (iota n)
entry main (n: i64) = (make n, total (\m (xs: [m]i64) -> i64.sum xs) n)
