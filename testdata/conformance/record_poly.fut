-- A polymorphic function over a record type parameter.
-- ==
-- input { } output { 1i32 2.0f64 }
def mk 'a 'b (x: a) (y: b) : {fst: a, snd: b} = {fst = x, snd = y}
entry main : (i32, f64) = let r = mk 1i32 2.0f64 in (r.fst, r.snd)
