-- A non-lifted abstract type cannot be defined as a function type.
-- ==
-- error: non-lifted type fn, but the module's definition might contain functions

module type has_fn = { type fn val apply : fn -> i32 -> i32 }

module f : has_fn = { type^ fn = i32 -> i32 def apply (g: fn) (x: i32) = g x }
