-- Prelude functions inside a map, on rows.
-- ==
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] } output { [[1i32, 2i32], [4i32, 5i32]] [3i32, 6i32] }
entry main (xss: [][]i32) : ([][]i32, []i32) = (map (take 2) xss, map last xss)
