-- Loops inside maps whose lanes run different numbers of iterations: the
-- CPU runs such a loop over a block of lanes at once, lanes leaving the
-- block as their loops end (issue 18). Trip counts differ per lane, the
-- loops read values of the lambda and of the entry, return a parameter
-- unchanged, and exit early on a condition.

-- Collatz steps: a while loop with a branch, trip counts all different.
-- ==
-- entry: collatz
-- input { 10i64 } output { [0i32, 1i32, 7i32, 2i32, 5i32, 8i32, 16i32, 3i32, 19i32, 6i32] }
-- input { 0i64 } output { empty([0]i32) }
entry collatz (n: i64) : []i32 =
  map (\i ->
         let (_, k) =
           loop (x, k) = (i + 1, 0i32) while x != 1 do
             (if x & 1 == 0 then x >> 1 else 3 * x + 1, k + 1)
         in k)
      (iota n)

-- The same over more lanes than a chunk, summed.
-- ==
-- entry: collatz_total
-- input { 5000i64 } output { 387968i32 }
entry collatz_total (n: i64) : i32 = i32.sum (collatz n)

-- A for loop whose bound is the lane's own value.
-- ==
-- entry: squares
-- input { 8i64 } output { [0i64, 0i64, 1i64, 5i64, 14i64, 30i64, 55i64, 91i64] }
entry squares (n: i64) : []i64 =
  map (\i -> loop s = 0 for j < i do s + j * j) (iota n)

-- Per-lane bounds over more lanes than a chunk.
-- ==
-- entry: triangles
-- input { 5000i64 } output { 1048960i64 }
entry triangles (n: i64) : i64 =
  i64.sum (map (\i -> loop s = 0 for j < i % 37 do s + j) (iota n))

-- An early exit: the first i with i*i > x, or 100; the flag comes back.
-- ==
-- entry: first_square
-- input { [0i64, 5i64, 17i64, 20000i64] } output { [2i64, 4i64, 6i64, 100i64] [true, true, true, false] }
entry first_square (xs: []i64) : ([]i64, []bool) =
  unzip (map (\x -> loop (i, found) = (0i64, false) while !found && i < 100 do (i + 1, i * i > x)) xs)

-- A loop that reads a value of the lambda and one of the entry, and
-- returns one of its parameters unchanged.
-- ==
-- entry: invariant
-- input { [1f64, 2f64, 3f64] 0.5f64 } output { [1f64, 2f64, 3f64] [2.5f64, 5.0f64, 7.5f64] }
entry invariant (xs: []f64) (c: f64) : ([]f64, []f64) =
  unzip (map (\x ->
                let d = x * c
                let (a, s, _) = loop (a, s, k) = (x, 0f64, 0i64) while k < 5 do (a, s + d, k + 1)
                in (a, s))
             xs)
