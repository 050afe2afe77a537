-- A character literal holds exactly one character ('ab' reads as a type
-- parameter's name, which cannot stand there).
-- ==
-- error: 5:24: unexpected "'ab'"
entry main : i32 = 1 + 'ab'
