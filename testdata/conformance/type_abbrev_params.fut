-- Type abbreviations with type and size parameters.
-- ==
-- input { [1i32, 2i32, 3i32] } output { 6i32 3i32 1i32 }
type pair 'a 'b = (a, b)
type vec [n] 't = [n]t
def sum_len [n] (v: vec [n] i32) : pair i32 i64 = (i32.sum v, n)
entry main (v: []i32) : (i32, i32, i32) = let (s, n) = sum_len v in (s, i32.i64 n, v[0])
