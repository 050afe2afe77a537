-- A value must have the type its module type specifies.
-- ==
-- error: returns i64 but its body has type i32

module type has_x = { val x : i64 }

module m : has_x = { def x = 1i32 }
