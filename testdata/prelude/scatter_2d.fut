-- scatter_2d writes at (row, column) indices; out-of-bounds ones are ignored.
-- ==
-- input { [[0i32, 0i32], [0i32, 0i32]] [0i64, 1i64, 2i64] [1i64, 0i64, 0i64] [7i32, 8i32, 9i32] } output { [[0i32, 7i32], [8i32, 0i32]] }
entry main (dest: *[][]i32) (is: []i64) (js: []i64) (vs: []i32) : [][]i32 = scatter_2d dest (zip is js) vs
