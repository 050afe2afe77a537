-- Recursive functions become core Funs; session values they use become
-- extra parameters passed at every call.
def fib (n: i32) : i32 = if n < 2 then n else fib (n - 1) + fib (n - 2)
def total (xs: []i32) : i32 =
  let n = length xs
  in if n == 0 then 0
     else if n == 1 then xs[0]
     else total xs[:n / 2] + total xs[n / 2:]
def tri (n: i32) : i32 = if n <= 0 then 0 else n + tri (n - 1)
def sumtri (n: i32) : i32 = if n <= 0 then 0 else tri n + sumtri (n - 1)

-- lower: fib 10 + fib 5
-- value: xs = [1i32, 2, 3]
-- lower: total xs
-- lower: map tri xs
-- lower: sumtri 4
-- value: base = 3i32
-- def: def down (n: i32) : i32 = if n <= 0 then base else down (n - 1) + 1
-- def: def up (n: i32) : i32 = down n + base
-- lower: map up xs
