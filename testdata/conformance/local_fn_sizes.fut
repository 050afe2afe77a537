-- Local functions that capture the size parameters and arrays of their
-- enclosing function.
def windows [n] (k: i64) (xs: [n]i32) : [][]i32 =
  let window (i: i64) : [k]i32 = tabulate k (\j -> xs[(i + j) % n])
  in tabulate n window

-- ==
-- input { [1, 2, 3] } output { [[1, 2], [2, 3], [3, 1]] [2, 4, 6] }
entry main [n] (xs: [n]i32) =
  let twice (i: i64) = xs[i] * 2
  in (windows 2 xs, tabulate n twice)
