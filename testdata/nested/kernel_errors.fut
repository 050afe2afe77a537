-- Run-time errors raised inside segmented-map kernels read as the CPU
-- interpreter's: the slice's bounds, an assertion's values, and the line
-- and column of an index that fails in one iteration of a loop of kernels
-- (whose error flag is read once, after the loop). Only one thread fails
-- in each, so the values in the message are the same on every backend.

-- A window of each element: the last one reaches past the end.
-- ==
-- entry: windows
-- input { [1i32, 2i32, 3i32, 4i32, 5i32] 4i64 } output { [3i32, 5i32, 7i32, 9i32] }
-- input { [1i32, 2i32, 3i32, 4i32, 5i32] 5i64 } error: Index \[4:6\] out of bounds for array of shape \[5\]
entry windows (xs: []i32) (k: i64) : []i32 = map (\i -> i32.sum xs[i:i + 2]) (iota k)

-- A range per row, i..<k: row 3 asks for 3..<2.
-- ==
-- entry: ranges
-- input { 3i64 2i64 } output { [1i64, 1i64, 0i64] }
-- input { 4i64 2i64 } error: Range 3\.\.<2 is invalid
entry ranges (n: i64) (k: i64) : []i64 = map (\i -> i64.sum (i..<k)) (iota n)

-- A stencil-like loop whose third iteration reads one element past the
-- end of the last row.
-- ==
-- entry: loop_oob
-- input { [[1i32, 2i32], [3i32, 4i32]] 2i64 } output { [[3i32, 4i32], [5i32, 6i32]] }
-- input { [[1i32, 2i32], [3i32, 4i32]] 5i64 } error: :31:14: Index \[1, 2\] out of bounds for array of shape \[2\]\[2\]
entry loop_oob [n][m] (a: [n][m]i32) (k: i64) : [n][m]i32 =
  loop a for it < k do
    map (\i -> map (\j ->
        if it == 2 && i == n - 1 && j == m - 1
        then a[i, j + 1]
        else a[i, j] + 1) (iota m)) (iota n)
