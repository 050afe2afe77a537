-- A function's type parameter named twice says where it was first given.
-- ==
-- error: first has two type parameters named t \(previously defined at 4:11\)
def first 't 't (x: t) : t = x
entry main (x: i64) = first x
