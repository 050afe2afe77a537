-- Reductions over rows with a vector operator, `reduce (map2 op) (replicate
-- m ne) xss`: column reductions. The GPU backend runs them as column
-- kernels, a thread per column reading xss in place (eval/gpu/vecop.go).
-- ==
-- entry: sum_i32
-- input { [[1i32, 2i32], [3i32, 4i32], [5i32, 6i32]] } output { [9i32, 12i32] }
-- input { [[7i32]] } output { [7i32] }
-- input { [[7i32, -1i32, 3i32]] } output { [7i32, -1i32, 3i32] }
-- input { [[1i32], [2i32], [3i32]] } output { [6i32] }
-- input { empty([0][3]i32) } output { [0i32, 0i32, 0i32] }
-- input { empty([2][0]i32) } output { empty([0]i32) }
-- input { empty([0][0]i32) } output { empty([0]i32) }
entry sum_i32 [m] (xss: [][m]i32) : [m]i32 = reduce (map2 (+)) (replicate m 0) xss

-- The neutral element from a variable, and an operator that is not a
-- single builtin: a max clamped from below by lo.
-- ==
-- entry: max_from
-- input { 0i32 [[1i32, -2i32], [-3i32, -4i32], [5i32, -6i32]] } output { [5i32, 0i32] }
-- input { -10i32 [[1i32, -2i32], [-3i32, -4i32], [5i32, -6i32]] } output { [5i32, -2i32] }
-- input { 3i32 empty([0][2]i32) } output { [3i32, 3i32] }
entry max_from [m] (lo: i32) (xss: [][m]i32) : [m]i32 =
  reduce (map2 (\a b -> if a > b then a else b)) (replicate m lo) xss

-- f32 sums (ordered: the column kernel folds each column in row order).
-- ==
-- entry: sum_f32
-- input { [[0.5f32, 1.25f32], [2.0f32, -1.0f32]] } output { [2.5f32, 0.25f32] }
-- input { empty([0][1]f32) } output { [0f32] }
entry sum_f32 [m] (xss: [][m]f32) : [m]f32 = reduce (map2 (+)) (replicate m 0) xss

-- Generated n x m arrays, checked against a loop per column (a different
-- kernel): shapes with few columns and many rows (the rows split over
-- blocks), many columns and few rows, and lengths around a warp.
-- ==
-- entry: check
-- input { 1000i64 3i64 } output { true 3i64 }
-- input { 3i64 1000i64 } output { true 1000i64 }
-- input { 33i64 31i64 } output { true 31i64 }
-- input { 32i64 1i64 } output { true 1i64 }
-- input { 1i64 32i64 } output { true 32i64 }
-- input { 100000i64 2i64 } output { true 2i64 }
-- input { 0i64 5i64 } output { true 5i64 }
-- input { 5i64 0i64 } output { true 0i64 }
entry check (n: i64) (m: i64) : (bool, i64) =
  let xss = map (\i -> map (\j -> (i * 7 + j * 13) % 101 - 50) (iota m)) (iota n)
  let sums = reduce (map2 (+)) (replicate m 0) xss
  let want = map (\j -> loop s = 0 for i < n do s + xss[i, j]) (iota m)
  in (reduce (&&) true (map2 (==) sums want), length sums)

-- A neutral element of another length than the rows: map2's size error
-- when there are rows, the neutral element itself when there are none.
-- (The rows have an unknown size ([]): with [m] the mismatch with [k] is
-- a static error, as in Futhark; arepl leaves unknown sizes to run time.)
-- ==
-- entry: wide
-- input { 3i64 [[1i32, 2i32]] } error: map2: arrays of different sizes
-- input { 3i64 empty([0][2]i32) } output { [0i32, 0i32, 0i32] }
-- input { 2i64 [[1i32, 2i32], [3i32, 4i32]] } output { [4i32, 6i32] }
entry wide (k: i64) (xss: [][]i32) : []i32 = reduce (map2 (+)) (replicate k 0) xss

-- Two arrays reduced together with a non-commutative operator (composition
-- of linear functions): the column kernel must fold in row order.
-- ==
-- entry: lin
-- input { [[2i32, 1i32], [3i32, 0i32], [-1i32, 2i32]] [[1i32, 5i32], [4i32, 6i32], [7i32, 8i32]] }
-- output { [-6i32, 0i32] [0i32, 20i32] }
-- input { empty([0][2]i32) empty([0][2]i32) } output { [1i32, 1i32] [0i32, 0i32] }
entry lin [m] (as: [][m]i32) (bs: [][m]i32) : ([m]i32, [m]i32) =
  unzip (reduce (\x y -> map2 (\(a, b) (c, d) -> (a * c, b * c + d)) x y) (replicate m (1, 0)) (map2 zip as bs))
