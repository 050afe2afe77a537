-- Segmented maps over three dimensions, empty dimensions in every position.
-- ==
-- entry: main
-- input { [[[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]], [[7i32, 8i32, 9i32], [10i32, 11i32, 12i32]]] } output { [[[0i32, 3i32, 8i32], [15i32, 24i32, 35i32]], [[48i32, 63i32, 80i32], [99i32, 120i32, 143i32]]] }
-- input { empty([0][2][3]i32) } output { empty([0][2][3]i32) }
-- input { empty([2][0][3]i32) } output { empty([2][0][3]i32) }
-- input { empty([2][2][0]i32) } output { empty([2][2][0]i32) }
entry main (a: [][][]i32) : [][][]i32 = map (map (map (\x -> x * x - 1))) a

-- A 3-D space from iota, each level's index used in the body.
-- ==
-- entry: cube
-- input { 2i64 3i64 4i64 } output { [[[0i64, 1i64, 2i64, 3i64], [10i64, 11i64, 12i64, 13i64], [20i64, 21i64, 22i64, 23i64]], [[100i64, 101i64, 102i64, 103i64], [110i64, 111i64, 112i64, 113i64], [120i64, 121i64, 122i64, 123i64]]] }
-- input { 2i64 0i64 4i64 } output { empty([2][0][4]i64) }
-- input { 0i64 3i64 4i64 } output { empty([0][3][4]i64) }
-- input { 2i64 3i64 0i64 } output { empty([2][3][0]i64) }
entry cube (n: i64) (m: i64) (p: i64) : [][][]i64 =
  map (\i -> map (\j -> map (\k -> i * 100 + j * 10 + k) (iota p)) (iota m)) (iota n)
