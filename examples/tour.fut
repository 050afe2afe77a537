-- Welcome to arepl! This file is a short tour; `make repl` loads it.
--
-- arepl runs a subset of Futhark: pure functions over arrays, with map,
-- reduce, scan and friends as the parallel building blocks. Everything
-- defined here is in scope at the prompt. Try these, one line at a time:
--
--   [0]> iota 10
--   [1]> squares 5
--   [2]> sum_of_squares 1000
--   [3]> average [1.0, 2.0, 4.5]
--   [4]> running_max [3, 1, 4, 1, 5, 9, 2, 6]
--   [5]> :type average
--   [5]> map (\x -> x * 2) (iota 5)
--   [6]> scan (+) 0 (iota 10) |> reverse
--   [7]> :time on
--   [7]> reduce (+) 0 (map (\x -> x * x) (iota 1_000_000))
--
-- (Commands such as :type do not take a number.) _N is input N's value:
-- try `_1` or `reduce (+) 0 _6`. 1_000_000 squares sum to 333332833333500000,
-- which fits in an i64; with 10_000_000 the sum would wrap around.
--
-- Integer arithmetic wraps, like in C but defined: try `127i8 + 1`.
-- Errors name their place: try `(iota 3)[5]` or `1 / 0`.
-- `:help` lists the commands; `:load examples/mssp.fut` loads another example.

-- | The squares 0, 1, 4, ... of the first n naturals.
def squares (n: i64) : []i64 = map (\i -> i * i) (iota n)

-- | A map feeding a reduce: fusion turns this into one redomap.
def sum_of_squares (n: i64) : i64 = reduce (+) 0 (squares n)

-- | The mean of an array of f64 (nan for an empty array).
def average (xs: []f64) : f64 = f64.sum xs / f64.i64 (length xs)

-- | The largest element so far, at every position: an inclusive scan.
def running_max (xs: []i32) : []i32 = scan i32.max i32.lowest xs

-- | Counts how many of xs fall in each of k buckets (a histogram).
def bucket_counts (k: i64) (xs: []i64) : []i32 = hist (+) 0 k xs (map (\_ -> 1) xs)

-- ==
-- entry: tour
-- input { 4i64 } output { [0i64, 1i64, 4i64, 9i64] 14i64 }
entry tour (n: i64) : ([]i64, i64) = (squares n, sum_of_squares n)

-- ==
-- entry: tour_scan
-- input { [3i32, 1i32, 4i32, 1i32, 5i32] [1.0f64, 2.0f64, 4.5f64] }
-- output { [3i32, 3i32, 4i32, 4i32, 5i32] 2.5f64 }
entry tour_scan (xs: []i32) (ys: []f64) : ([]i32, f64) = (running_max xs, average ys)

-- ==
-- entry: tour_hist
-- input { 3i64 [0i64, 2i64, 2i64, 5i64] } output { [1i32, 0i32, 2i32] }
entry tour_hist (k: i64) (xs: []i64) : []i32 = bucket_counts k xs
