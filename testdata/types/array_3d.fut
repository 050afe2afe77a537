-- Three-dimensional arrays: full and partial indexing.
-- ==
-- input { [[[1i32, 2i32]], [[3i32, 4i32]]] } output { 4i32 [1i32, 2i32] [[3i32, 4i32]] }
entry main (a: [][][]i32) : (i32, []i32, [][]i32) = (a[1, 0, 1], a[0, 0], a[1])
