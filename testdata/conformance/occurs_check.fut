-- A function applied to itself needs an infinite type.
-- ==
-- error: Occurs check

def self_apply f = f f

entry main (x: i32) : i32 = x
