-- A function's type parameter named twice says where it was first given.
-- ==
-- error: Name "t" also bound at 4:11: first has two type parameters named t
def first 't 't (x: t) : t = x
entry main (x: i64) = first x
