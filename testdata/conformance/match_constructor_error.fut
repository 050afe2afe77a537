-- A constructor pattern belongs to sum types, which arepl leaves out: the
-- error names them at the constructor.
-- ==
-- error: 7:8: .*sum types
entry main (x: i32) =
  match x
  case #some -> 1
  case _ -> 0
