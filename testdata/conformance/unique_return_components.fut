-- Two unique components of a result may not alias each other.
-- ==
-- error: A unique-typed component of the return value is aliased to some other component

entry main (xs: *[]i32) : (*[]i32, *[]i32) = (xs, xs)
