-- Scans over rows with a vector operator, `scan (map2 op) (replicate m ne)
-- xss`: a scan down every column. The GPU backend runs them with a thread
-- per column walking down the rows (eval/gpu/vecop.go, scan_cols.cu).
-- ==
-- entry: sum_i32
-- input { [[1i32, 2i32], [3i32, 4i32], [5i32, 6i32]] } output { [[1i32, 2i32], [4i32, 6i32], [9i32, 12i32]] }
-- input { [[7i32]] } output { [[7i32]] }
-- input { [[1i32], [2i32], [3i32]] } output { [[1i32], [3i32], [6i32]] }
-- input { [[1i32, 2i32, 3i32]] } output { [[1i32, 2i32, 3i32]] }
-- input { empty([0][3]i32) } output { empty([0][3]i32) }
-- input { empty([2][0]i32) } output { empty([2][0]i32) }
entry sum_i32 [m] (xss: [][m]i32) : [][m]i32 = scan (map2 (+)) (replicate m 0) xss

-- A running maximum from a variable's floor, and f32 sums.
-- ==
-- entry: max_from
-- input { 0i32 [[-1i32, 2i32], [3i32, -4i32], [1i32, 6i32]] } output { [[0i32, 2i32], [3i32, 2i32], [3i32, 6i32]] }
entry max_from [m] (lo: i32) (xss: [][m]i32) : [][m]i32 =
  scan (map2 (\a b -> if a > b then a else b)) (replicate m lo) xss

-- ==
-- entry: sum_f32
-- input { [[0.5f32, 1.25f32], [2.0f32, -1.0f32], [0.25f32, 0.0f32]] } output { [[0.5f32, 1.25f32], [2.5f32, 0.25f32], [2.75f32, 0.25f32]] }
entry sum_f32 [m] (xss: [][m]f32) : [][m]f32 = scan (map2 (+)) (replicate m 0) xss

-- Generated n x m arrays, the last row of the scan checked against a loop
-- per column and every row against the row above plus the input.
-- ==
-- entry: check
-- input { 1000i64 3i64 } output { true }
-- input { 3i64 1000i64 } output { true }
-- input { 33i64 31i64 } output { true }
-- input { 1i64 32i64 } output { true }
-- input { 32i64 1i64 } output { true }
-- input { 0i64 5i64 } output { true }
-- input { 5i64 0i64 } output { true }
entry check (n: i64) (m: i64) : bool =
  let xss = map (\i -> map (\j -> (i * 7 + j * 13) % 101 - 50) (iota m)) (iota n)
  let ps = scan (map2 (+)) (replicate m 0) xss
  let want = map (\j -> loop s = 0 for i < n do s + xss[i, j]) (iota m)
  let steps = map (\i -> map (\j -> ps[i, j] == (if i == 0 then 0 else ps[i - 1, j]) + xss[i, j]) (iota m)) (iota n)
  let last = if n == 0 then replicate m 0 else ps[n - 1]
  in reduce (&&) true (map2 (==) last want) && reduce (&&) true (map (reduce (&&) true) steps)

-- A neutral element of another length than the rows: map2's size error
-- when there are rows; with none, the empty rows.
-- (The rows have an unknown size ([]): with [m] the mismatch with [k] is
-- a static error, as in Futhark; arepl leaves unknown sizes to run time.)
-- ==
-- entry: wide
-- input { 3i64 [[1i32, 2i32]] } error: map2: arrays of different sizes
-- input { 3i64 empty([0][2]i32) } output { empty([0][2]i32) }
-- input { 2i64 [[1i32, 2i32], [3i32, 4i32]] } output { [[1i32, 2i32], [4i32, 6i32]] }
entry wide (k: i64) (xss: [][]i32) : [][]i32 = scan (map2 (+)) (replicate k 0) xss
