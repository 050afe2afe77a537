-- A record as a loop parameter.
-- ==
-- input { 10i32 } output { 55i32 }
entry main (n: i32) : i32 =
  let r = loop r = {i = 0i32, s = 0i32} while r.i < n do {i = r.i + 1, s = r.s + r.i + 1}
  in r.s
