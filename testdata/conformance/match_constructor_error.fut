-- A constructor pattern matches only a value of a sum type: against an
-- i32 it is Futhark's type error, at the constructor.
-- ==
-- error: 7:8: Cannot unify type with constructors #some with type i32
entry main (x: i32) =
  match x
  case #some -> 1
  case _ -> 0
