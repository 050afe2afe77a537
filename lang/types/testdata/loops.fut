-- Loops: the parameter's type must match what the body returns.
-- expr loop s = 0 for i < 10 do s + i => i32
-- expr loop s = 0 for i < 10i64 do s + i => i64
-- expr loop (a, b) = (0, 1) for i < 10 do (b, a + b) => (i32, i32)
-- expr loop x = 1.0 while x < 100.0 do x * 2.0 => f64
-- expr loop acc = 0 for x in [1, 2, 3] do acc + x => i32
-- expr loop acc = 0 for (a, b) in zip [1, 2] [3, 4] do acc + a * b => i32
-- expr loop xs = [1, 2] for i < 3 do xs ++ xs => []i32
-- expr loop s = 0i32 for i < 10 do 1.5 => ERROR "loop parameter has type i32 but the loop body returns f64"
-- expr loop s = 0 for i < 1.0 do s => ERROR "loop bound must be an integer, not f64"
-- expr loop x = 1 while x do x => ERROR "cannot unify bool with i32 in while condition"
-- expr loop f = (+ 1) for i < 3 do f => ERROR "a loop parameter may not be of function type"
-- expr loop (x: f32) = 0 for i < 3 do x + 1 => f32
-- expr loop s = 0 for x in 5 do s => ERROR "cannot unify \[\]'a with i32 in for-in loop"
-- expr let x = 0 in loop x for i < 3 do x + 1 => i32
-- expr let (a, b) = (0i8, 1i8) in loop (a, b) for i < 3 do (b, a) => (i8, i8)
---
-- In-place updates.
def upd [n] (xs: *[n]i32) (i: i64) =
  let xs[i] = 5
  in xs
def upd2 (m: *[][]f32) =
  let m[0, 1] = 1
  let m[1] = [2, 3]
  in m with [0, 0] = 7
-- expr upd => [n]i32 -> i64 -> [n]i32
-- expr upd2 => [][]f32 -> [][]f32
-- expr [1, 2, 3] with [1] = 7 => [3]i32
-- expr [1, 2, 3] with [1] = true => ERROR "cannot unify i32 with bool in in-place update"
-- expr [1, 2, 3] with [1i32] = 2 => [3]i32
-- expr let a = [1i32, 2] in let a[0] = 2.5 in a => ERROR "cannot unify i32 with f64 in in-place update"
-- expr let b[0] = 1 in b => ERROR "unknown name \"b\""
-- expr [[1, 2], [3, 4]] with [0] = [5, 6] => [2][2]i32
---
-- Higher-order functions: function parameters and let-bound functions are
-- fine; functions in arrays, tuples, if results and loops are not.
def apply (f: i32 -> i32) (x: i32) = f x
def twice f (x: f64) = f (f x)
def compose (f: i32 -> i32) (g: i32 -> i32) = \x -> f (g x)
-- expr apply (+ 1) 2 => i32
-- expr twice (* 2) 1 => f64
-- expr compose (+ 1) (* 2) 3 => i32
-- expr let f = \x -> x + 1 in f 2 => i32
-- expr let g = (* 3i8) in map g [1, 2] => [2]i8
-- expr [(+ 1), (* 2)] => ERROR "found to be functional"
-- expr ((+ 1), 2) => (i32 -> i32, i32)
-- expr let p = ((+ 1), 2) in p.0 p.1 => i32
-- expr let r = {f = (* 2), x = 3i8} in r.f r.x => i8
-- expr if true then ((+ 1), 2) else ((* 2), 3) => ERROR "if-results may not be of function type"
-- expr apply 1 2 => ERROR "argument 1 of apply"
---
def bad (b: bool) = if b then (+ 1) else (* 2i32)   -- ERROR "if-results may not be of function type"
