-- rep needs its size from the context; where nothing fixes it, the error
-- says so.
-- ==
-- error: rep: the result size must be known

entry main (x: i32) = rep x
