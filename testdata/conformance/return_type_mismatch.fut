-- A body whose type differs from the declared return type is rejected
-- with Futhark's wording.
-- ==
-- error: Function body does not have expected type

entry main (x: i32) : f32 = x
