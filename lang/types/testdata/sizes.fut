-- Static size checking (Futhark's size types): two different rigid sizes
-- (size names in scope, constants, an if's existential) that a context
-- requires equal are an error with Futhark's words for the context.
def add [n] (xs: [n]i32) (ys: [n]i32) = map2 (+) xs ys
-- expr add [1, 2] [3, 4] => [2]i32
-- expr add [1, 2] [3] => ERROR "Sizes \"2\" and \"1\" do not match"
-- expr add => [n]i32 -> [n]i32 -> [n]i32
---
def add [n] (xs: [n]i32) (ys: [n]i32) = map2 (+) xs ys
def bad [n] [m] (xs: [n]i32) (ys: [m]i32) = add xs ys   -- ERROR "^Cannot apply \"add\" to \"ys\" \(invalid type\)\. Expected: \[n\]i32 Actual: \[m\]i32 Sizes \"n\" and \"m\" do not match\.$"
---
-- A size name and a constant differ; so do two constants.
def three [n] (xs: [n]i32) : [3]i32 = xs   -- ERROR "^Function body does not have expected type\. Expected: \[3\]i32 Actual: \[n\]i32 Sizes \"3\" and \"n\" do not match\.$"
def four (x: i32) = [x, x, x] : [4]i32   -- ERROR "^Expression does not have expected type from explicit ascription\. .*Sizes \"4\" and \"3\" do not match\.$"
---
-- A loop body must keep the size the loop's pattern declares.
def body [n] [m] (xs: [n]i32) (ys: [m]i32) =
  loop (acc: [n]i32) = xs for _i < 2 do ys   -- ERROR "^Loop body does not have expected type\. Expected: \[n\]i32 Actual: \[m\]i32 Sizes \"n\" and \"m\" do not match\.$"
---
-- An undeclared loop size may change.
def changes [n] [m] (xs: [n]i32) (ys: [m]i32) = loop acc = xs for _i < 2 do ys
-- expr changes => [n]i32 -> [m]i32 -> []i32
---
-- An if whose branches have different sizes has an existential size: it
-- is neither, and equal only to itself.
def pick [n] [m] (b: bool) (xs: [n]i32) (ys: [m]i32) = if b then xs else ys
def same [n] (b: bool) (xs: [n]i32) (ys: [n]i32) : [n]i32 = if b then xs else ys
def twice [n] [m] (b: bool) (xs: [n]i32) (ys: [m]i32) = let zs = if b then xs else ys in map2 (+) zs zs
-- expr pick => bool -> [n]i32 -> [m]i32 -> []i32
-- expr same => bool -> [n]i32 -> [n]i32 -> [n]i32
-- expr twice => bool -> [n]i32 -> [m]i32 -> []i32
---
def mix [n] [m] (b: bool) (xs: [n]i32) (ys: [m]i32) = map2 (+) xs (if b then xs else ys)   -- ERROR "^Cannot apply \"map2\" to .*Actual: \[d[0-9]+\]i32 Sizes \"n\" and \"d[0-9]+\" do not match\. d[0-9]+ is the size of the if at [0-9]+:68, whose branches have sizes \[n\] and \[m\]\.$"
---
-- Unknown sizes are left to run time: [], filter's, a size expression's.
def unknown [n] (xs: [n]i32) (ys: []i32) = (map2 (+) xs ys, map2 (+) xs (filter (> 0) xs), map2 (+) xs (iota (n + 1) |> map i32.i64))
-- expr unknown => [n]i32 -> []i32 -> ([n]i32, [n]i32, [n]i32)
---
-- A size a lambda's parameter binds is the argument's, whatever it is.
def rows [n] [m] (xss: [n][m]i32) = map (\(r: [k]i32) -> length r) xss
-- expr rows => [n][m]i32 -> [n]i64
---
-- A polymorphic function is checked at each type it is used at, with the
-- caller's sizes in place of its own: [2] and m for n.
def first [n] 't (xs: [n]t) (ys: [n]t) : [n]t = if true then xs else ys
def use [m] (a: [m]i32) = (first [1, 2] [3, 4], first a a)
-- expr use => [m]i32 -> ([2]i32, [m]i32)
---
-- A loop whose body changes the initial value's size has an existential size.
def loopy [n] [m] (xs: [n]i32) (ys: [m]i32) = map2 (+) ys (loop acc = xs for _i < 2 do ys)   -- ERROR "^Cannot apply \"map2\" .*Sizes \"m\" and \"d[0-9]+\" do not match\. d[0-9]+ is the size of the loop at [0-9]+:60, whose body and initial value have sizes \[m\] and \[n\]\.$"
---
-- A let-bound function value's unfixed sizes are its own at each use.
def inc2 [n] [m] (xs: [n]i32) (ys: [m]i32) = let inc = map (+ 1) in (inc xs, inc ys)
-- expr inc2 => [n]i32 -> [m]i32 -> ([n]i32, [m]i32)
-- expr let inc = map (+ 1) in (inc [1, 2], inc [3])  => ([2]i32, [1]i32)
---
-- A size-binding let's pattern must match its value's sizes.
def lets (x: i32) = let [n] (a: [n]i64, b: [n]i64) = (iota 1, iota 2) in zip a b   -- ERROR "^Pattern cannot match value of type\. Expected: \(\[1\]i64, \[1\]i64\) Actual: \(\[1\]i64, \[2\]i64\) Sizes \"1\" and \"2\" do not match\.$"
---
-- The branches of an if that have one size in either branch have one
-- existential size; a record update may change a field's size.
def pairs (b: bool) = let (xs, ys) = if b then ([1, 2, 3], [4, 5, 6]) else ([1, 2], [3, 4]) in zip xs ys
def upd [n] [m] (xs: [n]i32) (ys: [m]i32) : ([m]i32, [m]i32) = let r = {xs, ys} with xs = ys in (r.xs, r.ys)
def branchy [n] [m] (b: bool) (xs: [n]i32) (ys: [m]i32) = map (+ 1) (if b then map (* 2) xs else ys)
-- expr pairs => bool -> [](i32, i32)
-- expr upd => [n]i32 -> [m]i32 -> ([m]i32, [m]i32)
-- expr branchy => bool -> [n]i32 -> [m]i32 -> []i32
---
-- A local function's open sizes are its own at each use.
def loc [n] [m] (xs: [n]i32) (ys: [m]i32) = let inc zs = map (+ 1) zs in (inc xs, inc ys)
-- expr loc => [n]i32 -> [m]i32 -> ([n]i32, [m]i32)
