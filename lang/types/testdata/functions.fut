-- Functions, inferred parameters, sizes and recursion.
def inc (x: i32) = x + 1
def twice x = x * 2.0
def add x y = x + y + 1i64
def sum [n] (xs: [n]i32) : i32 = reduce (+) 0 xs
def dup [n] (xs: [n]f32) = map (\x -> x * 2) xs
def len [n] (xs: [n]i32) = n
def implicit (xs: [m]i32) = m + 1
def fact (n: i32) : i32 = if n <= 1 then 1 else n * fact (n - 1)
def fib n = if n < 2 then n else fib (n - 1) + fib (n - 2)
def const5 = 5
def pointfree = map (+ 1i8)
entry main (xs: []i32) = sum xs
entry e2 = map2 (+)
-- expr inc => i32 -> i32
-- expr twice => f64 -> f64
-- expr add => i64 -> i64 -> i64
-- expr sum => [n]i32 -> i32
-- expr dup => [n]f32 -> [n]f32
-- expr dup [1, 2, 3] => [3]f32
-- expr len => [n]i32 -> i64
-- expr implicit => [m]i32 -> i64
-- expr fact 5 => i32
-- expr fib => i32 -> i32
-- expr const5 => i32
-- expr pointfree => [n]i8 -> [n]i8
-- expr e2 => [n]i32 -> [n]i32 -> [n]i32
-- expr inc 1 2 => ERROR "function expects 1 argument, got 2"
-- expr add 1 2 3 => ERROR "function expects 2 arguments, got 3"
-- expr inc 1.0 => ERROR "cannot unify i32 with f64 in argument 1 of inc"
-- expr inc true => ERROR "argument 1 of inc"
-- expr add 1 => i64 -> i64
-- expr sum [1, 2] + inc 3 => i32
-- expr len [1, 2, 3] => i64
-- expr dup [1i32] => ERROR "argument 1 of dup"
---
def f (x: i32) : f64 = x    -- ERROR "f returns f64 but its body has type i32"
---
def g x = x
---
def e = []                  -- ERROR "cannot infer the type"
---
-- Sizes must agree where they are known constants.
def pair [n] (xs: [n]i32) (ys: [n]i32) = map2 (+) xs ys
-- expr pair [1, 2] [3, 4] => [2]i32
-- expr pair [1, 2] [3, 4, 5] => ERROR "Cannot apply \"pair\" .*Sizes \"2\" and \"3\" do not match"
-- expr [1, 2] : [3]i32 => ERROR "explicit ascription.*Sizes \"3\" and \"2\" do not match"
-- expr iota 5 => [5]i64
-- expr let n = 7 in iota n => [n]i64
---
-- Local functions and shadowing.
def h (x: i32) =
  let sq y = y * y
  let x = sq x
  let x = f64.i32 x
  in x
def loc [n] (xs: [n]i32) =
  let g [m] (ys: [m]i32) = map (* 2) ys
  in g xs
-- expr h => i32 -> f64
-- expr loc => [n]i32 -> [n]i32
-- expr let f (a: i32) (b: i32) = a - b in f 1 => i32 -> i32
-- expr let f x = x + 1 in f 2.5 => f64
---
-- Entry points may not take functions.
entry bad (f: i32 -> i32) (x: i32) = f x   -- ERROR "Entry point functions may not be higher-order: bad takes"
---
-- Entries still check their parameters' types.
def q (x: i32) : i32 = x
entry r (b: bool) : i32 = q b   -- ERROR "cannot unify i32 with bool in argument 1 of q"
---
-- A size may name an earlier i64 parameter.
def take_n (n: i64) (xs: [n]f32) = xs
def infer_n n (xs: [n]f32) = n + 1
-- expr take_n 2 [1, 2] => [2]f32
-- expr infer_n => i64 -> [n]f32 -> i64
---
def badsize (b: bool) (xs: [b]i32) = xs   -- ERROR "size b must be an i64, not bool"
