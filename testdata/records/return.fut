-- A function may return a record; the entry point returns its fields.
-- ==
-- input { 7i32 2i32 } output { 3i32 1i32 }
def divmod (a: i32) (b: i32) : {q: i32, r: i32} = {q = a / b, r = a % b}
entry main (a: i32) (b: i32) : (i32, i32) = let d = divmod a b in (d.q, d.r)
