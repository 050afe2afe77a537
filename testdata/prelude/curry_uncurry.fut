-- curry and uncurry convert between pairs and two arguments.
-- ==
-- input { 3i32 4i32 } output { 12i32 7i32 [3i32, 7i32] }
entry main (a: i32) (b: i32) : (i32, i32, []i32) =
  (curry (\(x, y) -> x * y) a b, uncurry (+) (a, b), map (uncurry (+)) (zip [1, 3] [2, 4]))
