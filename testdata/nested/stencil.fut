-- A 2-D 5-point stencil iterated in a loop: every iteration is one
-- segmented map over [n][m] on the GPU, the array stays on the device.
def step [n][m] (a: [n][m]f32) : [n][m]f32 =
  map (\i -> map (\j ->
      if i == 0 || j == 0 || i == n - 1 || j == m - 1 then a[i, j]
      else (a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1] + a[i, j]) * 0.2f32)
    (iota m)) (iota n)

-- ==
-- entry: main
-- input { [[0f32, 0f32, 0f32, 0f32], [0f32, 10f32, 0f32, 0f32], [0f32, 0f32, 0f32, 5f32], [1f32, 1f32, 1f32, 1f32]] 3i64 } output { [[0.0f32, 0.0f32, 0.0f32, 0.0f32], [0.0f32, 0.712f32, 0.912f32, 0.0f32], [0.0f32, 1.1600001f32, 2.12f32, 5.0f32], [1.0f32, 1.0f32, 1.0f32, 1.0f32]] }
-- input { [[1f32, 2f32], [3f32, 4f32]] 100i64 } output { [[1.0f32, 2.0f32], [3.0f32, 4.0f32]] }
-- input { empty([0][0]f32) 5i64 } output { empty([0][0]f32) }
entry main [n][m] (a: [n][m]f32) (k: i64) : [n][m]f32 = loop a for _i < k do step a

-- A checksum after 100 iterations of a generated grid.
-- ==
-- entry: big
-- input { 64i64 100i64 100i64 } output { 51199.965f32 }
entry big (n: i64) (m: i64) (k: i64) : f32 =
  let a = map (\i -> map (\j -> f32.i64 ((i * 13 + j * 7) % 17)) (iota m)) (iota n)
  in f32.sum (flatten (main a k))
