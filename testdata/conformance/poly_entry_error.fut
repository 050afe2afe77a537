-- An entry point cannot be polymorphic.
-- ==
-- error: cannot be polymorphic
entry main 't (x: t) : t = x
