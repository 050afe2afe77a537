-- A segmented scan over rows with a tuple operator (running sum and maximum).
-- ==
-- input { [[1i32, -2i32, 3i32], [4i32, 0i32, -5i32]] } output { [[1i32, -1i32, 2i32], [4i32, 4i32, -1i32]] [[1i32, 1i32, 3i32], [4i32, 4i32, 4i32]] }
entry main (xss: [][]i32) : ([][]i32, [][]i32) =
  let op (s1: i32, m1: i32) (s2: i32, m2: i32) = (s1 + s2, i32.max m1 m2)
  let rs = map (\row -> scan op (0, i32.lowest) (map (\x -> (x, x)) row)) xss
  in (map (map (.0)) rs, map (map (.1)) rs)
