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

-- The clamped form (the benchmark's): every read is in bounds at every
-- point, which the kernel decides once per thread and then reads without
-- checks (eval/gpu/ranges.go).
def clamped_step [n][m] (a: [n][m]f32) : [n][m]f32 =
  map (\i -> map (\j ->
      let up = a[i64.max (i - 1) 0, j]
      let down = a[i64.min (i + 1) (n - 1), j]
      let left = a[i, i64.max (j - 1) 0]
      let right = a[i, i64.min (j + 1) (m - 1)]
      in (a[i, j] + up + down + left + right) / 5) (iota m)) (iota n)

-- ==
-- entry: clamped
-- input { [[0f32, 0f32, 0f32, 0f32], [0f32, 10f32, 0f32, 0f32], [0f32, 0f32, 0f32, 5f32]] 2i64 }
-- output { [[0.8f32, 1.2f32, 0.8f32, 0.2f32], [1.2f32, 2.0f32, 1.2f32, 1.4f32], [0.8f32, 1.4f32, 1.8f32, 2.2f32]] }
-- input { [[1f32]] 3i64 } output { [[1f32]] }
-- input { empty([2][0]f32) 2i64 } output { empty([2][0]f32) }
entry clamped [n][m] (a: [n][m]f32) (k: i64) : [n][m]f32 = loop a for _i < k do clamped_step a

-- A space smaller than the array, reads one row down: in bounds for every
-- point (the unchecked reads), and a clamp that is one too far, which
-- fails at the last row (the checked reads, with the error's position).
-- ==
-- entry: shifted
-- input { [[1i32, 2i32], [3i32, 4i32], [5i32, 6i32]] 0i64 } output { [[3i32, 4i32], [5i32, 6i32]] }
-- input { [[1i32], [3i32], [5i32]] 1i64 } error: :51:25: Index \[3, 0\] out of bounds for array of shape \[3\]\[1\]
entry shifted [n][m] (a: [n][m]i32) (extra: i64) : [][m]i32 =
  map (\i -> map (\j -> a[i64.min (i + 1) (n - 1 + extra), j]) (iota m)) (iota (n - 1 + extra))

-- A loop whose two arrays trade places and types each iteration: the
-- GPU reuses the array an iteration replaces for the next result of the
-- same size (eval/gpu/backend.go takeSpare), whatever its element type.
-- ==
-- entry: swap
-- input { 3i64 70i64 5i64 } output { 2625f32 5832i32 }
-- input { 2i64 2i64 4i64 } output { 42f32 32i32 }
-- input { 0i64 3i64 2i64 } output { 0f32 0i32 }
entry swap (n: i64) (m: i64) (k: i64) : (f32, i32) =
  let a = map (\i -> map (\j -> f32.i64 ((i * 5 + j) % 9)) (iota m)) (iota n)
  let b = map (\i -> map (\j -> i32.i64 ((i + j * 3) % 7)) (iota m)) (iota n)
  let (a, b) = loop (a, b) for _i < k do
    (map (map (\x -> f32.i32 x + 0.5)) b, map (map (\x -> i32.f32 (x * 2) - 1)) a)
  in (f32.sum (flatten a), i32.sum (flatten b))
