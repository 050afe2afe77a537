-- Reads whose index intervals would wrap in i64: the GPU backend proves
-- reads in bounds for every thread from intervals of the index arithmetic
-- (eval/gpu/ranges.go) and runs them unchecked. With an offset near 2^63
-- the interval's upper bound j + off wraps negative and would pass
-- "hi < m" while the first points read far out of bounds; the bounds'
-- no-wrap guards send such launches to the checked body, which reports
-- the read as Futhark does.

def grid (n: i64) (m: i64) : [n][m]i32 =
  map (\i -> map (\j -> i32.i64 ((i * 131 + j * 71) % 97) - 40) (iota m)) (iota n)

-- ==
-- entry: shifted
-- input { 3i64 100i64 0i64 } output { -18i64 }
-- input { 3i64 100i64 9223372036854775806i64 } error: out of bounds
-- input { 3i64 100i64 -9223372036854775807i64 } error: out of bounds
-- input { 2i64 5i64 4611686018427387904i64 } error: out of bounds
entry shifted (n: i64) (m: i64) (off: i64) : i64 =
  let a = grid n m
  let b = map (\i -> map (\j -> a[i, j + off] - a[i, j]) (iota m)) (iota n)
  in i64.sum (map (\r -> i64.sum (map i64.i32 r)) b) + i64.sum (map (\r -> i64.i32 r[0]) a)

-- Clamped reads stay in bounds at any offset, and the 64-bit body (not the
-- narrow one) must give the same as the CPU.
-- ==
-- entry: clamped
-- input { 3i64 100i64 9223372036854775806i64 } output { -1724i64 }
-- input { 3i64 100i64 -9223372036854775807i64 } output { -1800i64 }
entry clamped (n: i64) (m: i64) (off: i64) : i64 =
  let a = grid n m
  let b = map (\i -> map (\j -> a[i, i64.max 0 (i64.min (j + off) (m - 1))]) (iota m)) (iota n)
  in i64.sum (map (\r -> i64.sum (map i64.i32 r)) b)
