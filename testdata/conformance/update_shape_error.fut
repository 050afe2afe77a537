-- Writing a value into a slice of another shape fails with Futhark's
-- message.
-- ==
-- input { [1i32, 2i32, 3i32] 1i64 } output { [1i32, 8i32, 9i32] }
-- input { [1i32, 2i32, 3i32] 0i64 } error: Shape of slice does not match shape of value
entry main (xs: *[]i32) (i: i64) : []i32 = xs with [i:] = [8, 9]
