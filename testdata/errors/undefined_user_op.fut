-- An operator that is neither built in nor declared is unknown, as before
-- user-defined operators existed, reported at the operator.
-- ==
-- error: 5:34: unknown operator \+\^
entry main (a: i32) (b: i32) = a +^ b
