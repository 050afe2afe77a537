-- Array literals built from expressions.
-- ==
-- input { 3i32 } output { [3i32, 4i32, 6i32] [[3i32], [9i32]] }
entry main (x: i32) : ([]i32, [][]i32) = ([x, x + 1, x * 2], [[x], [x * x]])
