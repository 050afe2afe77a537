-- An input that does not fit the entry point is an error a test may
-- expect (as a run-time error in Futhark).
-- ==
-- input { [1i32, 2i32] } error: size
-- input { [1i32, 2i32, 3i32] } output { 6i32 }
entry main (xs: [3]i32) : i32 = i32.sum xs
