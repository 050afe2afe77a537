-- Doubly recursive Fibonacci.
def fib (n: i32) : i32 = if n < 2 then n else fib (n - 1) + fib (n - 2)

-- ==
-- input { 0i32 } output { 0i32 }
-- input { 1i32 } output { 1i32 }
-- input { 15i32 } output { 610i32 }
entry main (n: i32) : i32 = fib n
