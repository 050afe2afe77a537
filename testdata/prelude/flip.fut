-- flip swaps the arguments of a function.
-- ==
-- input { 10i32 3i32 } output { -7i32 [7i32, 6i32] }
entry main (a: i32) (b: i32) : (i32, []i32) = (flip (-) a b, map (flip (-) b) [a, 9])
