-- A scatter inside a map over rows: on the GPU a segmented map whose
-- threads scatter sequentially into a thread-local copy of the destination.
-- At zero rows no thread runs, and the host gives the results the shape of
-- the destination (a replicate of m, a copy of a row): before the nest
-- analysis followed a scatter's destination, that shape was [0][0] (an
-- H200, 02330da).
-- ==
-- entry: reverse_rows
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] } output { [[3i32, 2i32, 1i32], [6i32, 5i32, 4i32]] }
-- input { [[7i32]] } output { [[7i32]] }
-- input { empty([0][3]i32) } output { empty([0][3]i32) }
-- input { empty([2][0]i32) } output { empty([2][0]i32) }
-- input { empty([0][0]i32) } output { empty([0][0]i32) }
entry reverse_rows [n] [m] (xss: [n][m]i32) : [n][m]i32 =
  map (\row -> scatter (replicate m 0) (map (\i -> m - 1 - i) (iota m)) row) xss

-- Indices outside the destination are ignored; the destination keeps the
-- values nothing was written over.
-- ==
-- entry: some
-- input { [[1f32, 2f32, 3f32, 4f32], [5f32, 6f32, 7f32, 8f32]] }
-- output { [[-1f32, 2f32, 1f32, 4f32], [-5f32, 6f32, 5f32, 8f32]] }
-- input { [[1f32]] } output { [[-1f32]] }
-- input { empty([0][4]f32) } output { empty([0][4]f32) }
-- input { empty([0][0]f32) } output { empty([0][0]f32) }
-- input { empty([3][0]f32) } error: out of bounds
entry some [n] [m] (xss: [n][m]f32) : [n][m]f32 =
  map (\row -> scatter (copy row) [0, -1, 2, m] [-row[0], 9, row[0], 9]) xss

-- Generated rows, a permutation scattered then gathered back, at row
-- counts and lengths around a warp and a block.
-- ==
-- entry: check
-- input { 1i64 1i64 } output { true }
-- input { 33i64 31i64 } output { true }
-- input { 1000i64 6i64 } output { true }
-- input { 3i64 1000i64 } output { true }
-- input { 0i64 5i64 } output { true }
-- input { 5i64 0i64 } output { true }
entry check (n: i64) (m: i64) : bool =
  let xss = map (\i -> map (\j -> i * 1000 + j) (iota m)) (iota n)
  let perm = map (\j -> (j * 7 + 3) % m) (iota m)
  let ok = m == 0 || m % 7 != 0
  let yss = map (\row -> scatter (replicate m (-1)) perm row) xss
  in !ok || reduce (&&) true (map2 (\row ys -> reduce (&&) true (map (\j -> ys[perm[j]] == row[j]) (iota m))) xss yss)
