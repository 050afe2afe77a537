-- A loop inside a map lambda whose bound is the lambda's parameter, over an
-- array produced by another map (so unfused, the loop runs over a chunk of
-- lanes with different trip counts).
def fib (n: i32) : i32 =
  let (a, _) = loop (a, b) = (0, 1) for _i < n do (b, a + b)
  in a

-- ==
-- input { 10i64 } output { [0, 1, 1, 2, 3, 5, 8, 13, 21, 34] }
-- input { 0i64 } output { empty([0]i32) }
-- input { 1i64 } output { [0] }
entry main (n: i64) : []i32 = map fib (map i32.i64 (iota n))
