-- A polymorphic user-defined operator (declared in prefix form, which
-- type parameters need) used at two element types, and an operator on
-- tuples declared infix with tuple patterns.
def (<+>) 't (a: []t) (b: []t) : []t = a ++ b
def (a: i32, b: i32) +^ (c: i32, d: i32) = (a + c, b + d)

-- ==
-- input { [1, 2] [3] } output { [1, 2, 3] [true, false] 4 6 }
entry main (xs: []i32) (ys: []i32) =
  let (s, t) = (1, 2) +^ (3, 4)
  in (xs <+> ys, [true] <+> [false], s, t)
