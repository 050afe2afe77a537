-- Matrix products: a thread per element of [n][p], the inner redomap run
-- sequentially (column j of b read coalesced by neighbouring threads).
def matmul_f32 [n][m][p] (a: [n][m]f32) (b: [m][p]f32) : [n][p]f32 =
  map (\row -> map (\col -> f32.sum (map2 (*) row col)) (transpose b)) a

def matmul_i32 [n][m][p] (a: [n][m]i32) (b: [m][p]i32) : [n][p]i32 =
  map (\row -> map (\col -> i32.sum (map2 (*) row col)) (transpose b)) a

-- ==
-- entry: mf32
-- input { [[1f32, 2f32, 3f32], [4f32, 5f32, 6f32]] [[1f32, 0f32], [0f32, 1f32], [2f32, -1f32]] } output { [[7.0f32, -1.0f32], [16.0f32, -1.0f32]] }
-- input { [[1f32, 2f32, 3f32]] [[1f32], [2f32], [3f32]] } output { [[14.0f32]] }
-- input { [[1f32], [2f32], [3f32]] [[1f32, 2f32, 3f32]] } output { [[1.0f32, 2.0f32, 3.0f32], [2.0f32, 4.0f32, 6.0f32], [3.0f32, 6.0f32, 9.0f32]] }
-- input { empty([0][3]f32) [[1f32], [2f32], [3f32]] } output { empty([0][1]f32) }
-- input { empty([2][0]f32) empty([0][3]f32) } output { [[0.0f32, 0.0f32, 0.0f32], [0.0f32, 0.0f32, 0.0f32]] }
-- input { [[1f32, 2f32]] empty([2][0]f32) } output { empty([1][0]f32) }
entry mf32 [n][m][p] (a: [n][m]f32) (b: [m][p]f32) : [n][p]f32 = matmul_f32 a b

-- ==
-- entry: mi32
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] [[1i32, 0i32], [0i32, 1i32], [2i32, -1i32]] } output { [[7i32, -1i32], [16i32, -1i32]] }
-- input { [[7i32]] [[-3i32]] } output { [[-21i32]] }
entry mi32 [n][m][p] (a: [n][m]i32) (b: [m][p]i32) : [n][p]i32 = matmul_i32 a b

-- Sizes that are multiples of no tile: checksums of generated matrices.
-- ==
-- entry: check
-- input { 67i64 45i64 31i64 } output { 3i64 3.0f32 }
-- input { 1i64 300i64 1i64 } output { 56i64 56.0f32 }
-- input { 1i64 1i64 129i64 } output { 25i64 25.0f32 }
-- input { 129i64 1i64 1i64 } output { -12i64 -12.0f32 }
-- input { 33i64 65i64 17i64 } output { 0i64 0.0f32 }
entry check (n: i64) (m: i64) (p: i64) : (i64, f32) =
  let a = map (\i -> map (\j -> i32.i64 ((i * 7 + j * 3) % 11) - 5) (iota m)) (iota n)
  let b = map (\i -> map (\j -> i32.i64 ((i * 5 + j * 2) % 13) - 6) (iota p)) (iota m)
  let c = matmul_i32 a b
  let af = map (map f32.i32) a
  let bf = map (map f32.i32) b
  let cf = matmul_f32 af bf
  in (i64.sum (map i64.i32 (flatten c)), f32.sum (flatten cf))
