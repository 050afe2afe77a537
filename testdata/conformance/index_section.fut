-- (.[i]) is an index section.
-- ==
-- input { [[1i32, 2i32], [3i32, 4i32]] } output { [2i32, 4i32] [[1i32], [3i32]] }
entry main (xss: [][]i32) : ([]i32, [][]i32) = (map (.[1]) xss, map (.[0:1]) xss)
