-- a...b includes both ends.
-- ==
-- input { 1i32 4i32 } output { [1i32, 2i32, 3i32, 4i32] }
-- input { 2i32 2i32 } output { [2i32] }
-- input { 3i32 2i32 } error: Range 3...2 is invalid
entry main (a: i32) (b: i32) : []i32 = a...b
