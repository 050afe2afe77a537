-- flatten applied twice flattens a three-dimensional array.
-- ==
-- input { [[[1i32, 2i32], [3i32, 4i32]], [[5i32, 6i32], [7i32, 8i32]]] } output { [1i32, 2i32, 3i32, 4i32, 5i32, 6i32, 7i32, 8i32] }
entry main (a: [][][]i32) : []i32 = flatten (flatten a)
