-- Parameter patterns: tuples, wildcards, ascriptions, uniqueness.
def f ((a, b): (i32, f32)) = f32.i32 a + b
def g (_: i32) (x: bool) = x
def h (a, b) = a + b + 1u16
def k (xs: *[]i32) = xs
def fn (f: i32 -> i32 -> i32) = f 1 2
def ho (f: (i32, i32) -> bool) = f (1, 2)
-- expr f => (i32, f32) -> f32
-- expr g => i32 -> bool -> bool
-- expr h => (u16, u16) -> u16
-- expr k => []i32 -> []i32
-- expr fn (+) => i32
-- expr fn (\x y -> x * y) => i32
-- expr ho (\(a, b) -> a < b) => bool
-- expr f (1, 2) => f32
-- expr h 1 => ERROR "cannot unify \(u16, u16\) with i32 in argument 1 of h"
-- expr \(a, b, c) -> a + b + c + 1i8 => (i8, i8, i8) -> i8
-- expr (\(a, b) -> a) 1 => ERROR "cannot match a pattern of 2 components against a value of type i32|argument 1"
---
-- One message per mistake: what depends on an erroneous expression is not
-- reported again.
def a (x: i32) =
  let y = undefined          -- ERROR "unknown name \"undefined\""
  let z = y * 2.0
  in z && true
def b (x: i32) =
  let p = (x, x)
  let q = p.5                -- ERROR "has no field 5"
  in q + 1
def c = map (\x -> x + 1) nothing   -- ERROR "unknown name \"nothing\""
def d = a 1 + b 2 + c[0]
---
-- The type of a recursive call decides nothing it cannot know.
def loopy (x: i32) = loopy x
---
-- Top-level let is the old spelling of def; doc comments become Doc.
-- | The answer.
let answer = 42i64
-- expr answer + 1 => i64
