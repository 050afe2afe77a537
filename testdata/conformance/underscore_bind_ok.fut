-- Binding names that start with an underscore, and sections and sized lets
-- (whose generated variables are named so), are fine.
-- ==
-- input { [3i32, 4i32] } output { 7i32 [4i32, 5i32] 2i64 }

entry main (xs: []i32) =
  let (_unused, total) = (length xs, i32.sum xs)
  let [k] (ys: [k]i32) = map (+ 1) xs
  in (total, (.[0:k]) ys, loop acc = 0i64 for _i < k do acc + 1)
