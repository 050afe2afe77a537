-- Futhark indexes with any integer type (issue 17, bug 1); an index of
-- another type is an error.
-- ==
-- error: must be an integer
entry main (xs: []i32) (i: f32) : i32 = xs[i]
