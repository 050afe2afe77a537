-- Column sums by transposing, then a segmented reduction over rows.
-- ==
-- input { [[1i32, 2i32], [3i32, 4i32], [5i32, 6i32]] } output { [9i32, 12i32] }
entry main (xss: [][]i32) : []i32 = map i32.sum (transpose xss)
