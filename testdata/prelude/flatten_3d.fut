-- flatten_3d and flatten_4d combine the outer dimensions.
-- ==
-- input { [[[1i32, 2i32], [3i32, 4i32]], [[5i32, 6i32], [7i32, 8i32]]] } output { [1i32, 2i32, 3i32, 4i32, 5i32, 6i32, 7i32, 8i32] 8i64 }
entry main (xs: [][][]i32) : ([]i32, i64) = (flatten_3d xs, length (flatten_4d [xs]))
