-- An operator that is neither built in nor declared is an unknown name,
-- reported at the operator.
-- ==
-- error: 5:34: unknown name "\+\^"
entry main (a: i32) (b: i32) = a +^ b
