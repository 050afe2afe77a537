-- A consumed argument may not alias an argument to its right.
-- ==
-- error: Argument is consumed, but aliases "ys" which is also aliased by other argument

entry main (ys: *[]f32) = scatter ys (map i64.f32 ys) ys
