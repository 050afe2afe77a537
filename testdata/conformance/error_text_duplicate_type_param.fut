-- A type parameter named twice says where the name was first given, in
-- a type abbreviation and in a function.
-- ==
-- error: type grid has two parameters named a \(previously defined at 5:11\)
type grid 'a 'a = [2][2]a
def first 't 't (x: t) : t = x
entry main (x: i64) = first x
