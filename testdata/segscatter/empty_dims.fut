-- Segmented maps whose threads make array results, with an empty
-- dimension in every position. At an empty index space no thread runs, and
-- the host gives each result the shape it knows before the launch: a
-- slice's bounds, the sum of a concatenation's parts, an updated or
-- scanned row's length, a scatter's destination (issue 15).

-- A slice of each row.
-- ==
-- entry: take_rows
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] } output { [[1i32, 2i32], [4i32, 5i32]] }
-- input { empty([0][3]i32) } output { empty([0][2]i32) }
-- input { empty([2][0]i32) } error: out of bounds
entry take_rows [n][m] (xss: [n][m]i32) : [n][]i32 = map (\r -> r[0:2]) xss

-- Every other element from the second.
-- ==
-- entry: strided
-- input { [[1i32, 2i32, 3i32, 4i32, 5i32, 6i32]] } output { [[2i32, 4i32, 6i32]] }
-- input { empty([0][6]i32) } output { empty([0][3]i32) }
entry strided [n][m] (xss: [n][m]i32) : [n][]i32 = map (\r -> r[1:6:2]) xss

-- A concatenation of each row's reverse and rotation.
-- ==
-- entry: concat_rows
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] } output { [[3i32, 2i32, 1i32, 2i32, 3i32, 1i32], [6i32, 5i32, 4i32, 5i32, 6i32, 4i32]] }
-- input { empty([0][4]i32) } output { empty([0][8]i32) }
-- input { empty([2][0]i32) } output { empty([2][0]i32) }
-- input { empty([0][0]i32) } output { empty([0][0]i32) }
entry concat_rows [n][m] (xss: [n][m]i32) : [n][]i32 = map (\r -> concat (reverse r) (rotate 1 r)) xss

-- An in-place update of a copy of each row.
-- ==
-- entry: update_rows
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] } output { [[5i32, 2i32, 3i32], [5i32, 5i32, 6i32]] }
-- input { empty([0][3]i32) } output { empty([0][3]i32) }
-- input { empty([2][0]i32) } error: out of bounds
entry update_rows [n][m] (xss: [n][m]i32) : [n][m]i32 = map (\r -> let c = copy r let c[0] = 5 in c) xss

-- A scan of each row that starts from the row's sum: the sum must not be
-- repeated per element, so each thread runs its whole row.
-- ==
-- entry: scan_rows
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] } output { [[8i32, 11i32, 15i32], [20i32, 26i32, 33i32]] }
-- input { empty([0][4]i32) } output { empty([0][4]i32) }
-- input { empty([3][0]i32) } output { empty([3][0]i32) }
-- input { empty([0][0]i32) } output { empty([0][0]i32) }
entry scan_rows [n][m] (xss: [n][m]i32) : [n][m]i32 = map (\r -> let s = i32.sum r in scan (+) s (map (+ 1) r)) xss

-- A running sum along each row by a loop of in-place updates of a
-- thread-local array (the tridiagonal solver's shape).
-- ==
-- entry: running
-- input { [[1f32, 2f32, 3f32], [4f32, 5f32, 6f32]] } output { [[1f32, 3f32, 6f32], [4f32, 9f32, 15f32]] }
-- input { empty([0][3]f32) } output { empty([0][3]f32) }
-- input { empty([3][0]f32) } output { empty([3][0]f32) }
entry running [n][m] (xss: [n][m]f32) : [n][m]f32 =
  map (\r -> loop acc = copy r for i < m - 1 do let acc[i + 1] = acc[i + 1] + acc[i] in acc) xss

-- A scatter into each row of a 3-D array, empty in every position. (At
-- [0][2][3] the fused CPU interpreter once gave [0][2][0]: its segmented
-- map at zero segments guessed the inner shape instead of running one.)
-- ==
-- entry: scatter3
-- input { [[[1i32, 2i32], [3i32, 4i32]], [[5i32, 6i32], [7i32, 8i32]]] } output { [[[7i32, 2i32], [7i32, 4i32]], [[7i32, 6i32], [7i32, 8i32]]] }
-- input { empty([0][2][3]i32) } output { empty([0][2][3]i32) }
-- input { empty([2][0][3]i32) } output { empty([2][0][3]i32) }
-- input { empty([2][3][0]i32) } output { empty([2][3][0]i32) }
entry scatter3 [k][n][m] (xsss: [k][n][m]i32) : [k][n][m]i32 = map (\xss -> map (\row -> scatter (copy row) [0] [7]) xss) xsss

-- An escape-time loop per point of a grid with an empty dimension (the
-- Mandelbrot shape).
-- ==
-- entry: escape
-- input { 2i64 3i64 } output { [[0i32, 1i32, 2i32], [1i32, 2i32, 3i32]] }
-- input { 3i64 0i64 } output { empty([3][0]i32) }
-- input { 0i64 3i64 } output { empty([0][3]i32) }
entry escape (h: i64) (w: i64) : [h][w]i32 =
  map (\y -> map (\x -> loop c = 0i32 while c < i32.i64 (x + y) do c + 1) (iota w)) (iota h)
