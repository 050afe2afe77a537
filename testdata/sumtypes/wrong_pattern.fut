-- A pattern whose constructor the scrutinee's type lacks is a type error.
-- ==
-- error: Cannot unify type with constructors #baz _ with type #bar \| #foo i32

type t = #foo i32 | #bar

def main (x: t) : i32 =
  match x
  case #foo y -> y
  case #baz z -> z
  case _ -> 0
