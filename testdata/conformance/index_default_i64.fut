-- An index that nothing else decides is an i64, so it may be used as a
-- size too.
-- ==
-- input { [1i32, 2i32, 3i32] } output { 2i32 [1i32, 2i32] }
entry main (xs: []i32) : (i32, []i32) = let i = 1 in (xs[i], take (i + 1) xs)
