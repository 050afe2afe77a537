-- A lambda may take a tuple pattern and carry type annotations.
-- ==
-- input { [1i32, 2i32] [10i32, 20i32] } output { [11i32, 22i32] }
entry main (xs: []i32) (ys: []i32) : []i32 =
  map (\(a: i32, b: i32) : i32 -> a + b) (zip xs ys)
