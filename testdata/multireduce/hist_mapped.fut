-- A histogram of values computed by a map (bucket = x mod 4).
-- ==
-- input { [1i32, 5i32, 2i32, 7i32, -1i32, 8i32] } output { [1i32, 2i32, 1i32, 2i32] }
entry main (xs: []i32) : []i32 =
  let is = map (\x -> i64.i32 (x % 4)) xs
  in hist (+) 0 4 is (map (\_ -> 1) xs)
