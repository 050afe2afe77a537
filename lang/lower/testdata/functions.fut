-- Function values are inlined; recursive functions become core Funs.
def inc (x: i32) = x + 1
def twice (f: i32 -> i32) (x: i32) = f (f x)
def add3 (a: i32) (b: i32) (c: i32) = a + b + c
def sum [n] (xs: [n]i32) : i32 = reduce (+) 0 xs
def dot [n] (xs: [n]f32) (ys: [n]f32) : f32 = f32.sum (map2 (*) xs ys)
def fact (n: i64) : i64 = if n <= 1 then 1 else n * fact (n - 1)
def fib (n: i32) : i32 = if n < 2 then n else fib (n - 1) + fib (n - 2)
def compose (f: i32 -> i32) (g: i32 -> i32) (x: i32) = f (g x)

-- value: xs = [1i32, 2, 3]
-- value: fs = [1f32, 2, 3]
-- value: gs = filter (>1) fs
-- lower: inc 1
-- lower: twice inc 1
-- lower: twice (\x -> x * 3) 1
-- lower: map (add3 1 2) xs
-- lower: map inc xs
-- lower: let f = add3 1 in f 2 3
-- lower: let g (y: i32) = y * 2 in map g xs
-- lower: sum xs
-- lower: dot fs fs
-- lower: dot fs gs
-- lower: fact 10
-- lower: map fib xs
-- lower: compose inc (*2) 5
-- lower: map (.1) (zip xs fs)
-- lower: map (.0) (zip xs fs)
-- lower: (2-) 5 + (-2) + (i32.+) 1 2
-- value: k = 7i32
-- value: ks = [1i32, 2]
-- lower: let f = add3 k in f 1 2
