-- A match needs at least one case.
-- ==
-- error: expected "case"
entry main (x: i32) : i32 = match x
