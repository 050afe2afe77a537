-- A literal pattern must have the scrutinee's type.
-- ==
-- error: cannot unify
entry main (x: i32) : i32 = match x case true -> 1 case _ -> 0
