-- An exclusive scan built from an inclusive one.
-- ==
-- input { [3i32, 1i32, 4i32, 1i32] } output { [0i32, 3i32, 4i32, 8i32] }
entry main [n] (xs: [n]i32) : [n]i32 =
  let inc = scan (+) 0 xs
  in map (\i -> if i == 0 then 0 else inc[i - 1]) (iota n)
