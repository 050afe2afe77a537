-- `let r.f = v` updates a record field in place (let r = r with f = v),
-- nested fields too; `in` may be left out before another let.
-- ==
-- input { 1 } output { 5 1 7 }
entry main (x: i32) =
  let r = {a = x, b = {c = x, d = x}}
  let r.a = 5
  let r.b.d = 7 in
  (r.a, r.b.c, r.b.d)
