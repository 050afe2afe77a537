-- User-defined operators: declared prefix `def (op) a b` or infix
-- `def a op b`, local ones with let, used infix and in sections. An
-- operator binds like the table entry it starts with: +^ like +, <*> like
-- <, so `a +^ b * c` is a +^ (b * c) and `a <*> b + c` is a <*> (b + c).
def (+^) (a: i32) (b: i32) = a * 10 + b
def (x: i32) <*> (y: i32) : i32 = x * y + 1
def v **^ w : f64 = f64.sqrt (v * v + w * w)

-- ==
-- input { 1 2 3 } output { 123 14 [12, 13] [21, 31] 0 7 5.0 }
entry main (a: i32) (b: i32) (c: i32) =
  let (%%%) x y = x + y + 100
  in (a +^ b +^ c,
      a +^ b * c / 2 + 1,
      map (1 +^) [2, 3],
      map (+^ 1) [2, 3],
      (a <*> b + c) %%% -106,
      b <*> c,
      3.0 **^ 4.0)
