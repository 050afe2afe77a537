-- Backticked qualified functions as infix operators and sections, mixed
-- with pipes (the backtick binds loosest).
-- ==
-- input { [3, 7, 1] } output { 7 [3, 5, 5] [2, 2, 1] }
entry main (xs: []i32) =
  (reduce (\a b -> a `i32.max` b) i32.lowest xs,
   map (`i32.max` 5) xs |> map (`i32.min` 5) |> map2 i32.min [3, 9, 9],
   map (2 `i32.min`) xs)
