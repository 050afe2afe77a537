-- Recursion: the naive Fibonacci function.
def fib (n: i64) : i64 = if n < 2 then n else fib (n - 1) + fib (n - 2)
entry main (n: i64) : i64 = fib n
