-- Applying a value that is not a function.
-- ==
-- error: Cannot apply expression as function: its type i64 is not a function type
entry main (n: i64) = n 2
