-- `for (a, b) in zip xs ys` iterates over pairs.
-- ==
-- input { [1i32, 2i32, 3i32] [4i32, 5i32, 6i32] } output { 32i32 }
entry main (xs: []i32) (ys: []i32) : i32 =
  loop acc = 0 for (a, b) in zip xs ys do acc + a * b
