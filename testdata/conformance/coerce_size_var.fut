-- A :> coercion to a size held in a variable makes two arrays of
-- unrelated sizes zippable; it is checked when the sizes differ.
-- ==
-- input { [1, 2, 3] [4, 5, 6] } output { [5, 7, 9] }
-- input { [1, 2, 3] [4, 5] } error: cannot match shape of type "\[3\]i32"
entry main (xs: []i32) (ys: []i32) =
  let n = length xs
  in map2 (+) (xs :> [n]i32) (ys :> [n]i32)
