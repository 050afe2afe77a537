-- tabulate_3d builds a three-dimensional array from its indices.
-- ==
-- input { 2i64 1i64 2i64 } output { [[[0i32, 1i32]], [[100i32, 101i32]]] }
entry main (n: i64) (m: i64) (o: i64) : [][][]i32 = tabulate_3d n m o (\i j k -> i32.i64 (100 * i + 10 * j + k))
