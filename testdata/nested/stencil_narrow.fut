-- The 32-bit form of segmented maps (eval/gpu/segmap.go, narrowLoop):
-- stencils whose reads are in bounds at every point, on rows shorter and
-- longer than a warp's step, not multiples of it, in 2 and 3
-- dimensions, and offsets too large for 32 bits (the 64-bit copy runs).
-- Integer arithmetic, so that every element is compared exactly (a
-- weighted checksum: a misplaced element changes it).

def grid (n: i64) (m: i64) : [n][m]i32 =
  map (\i -> map (\j -> i32.i64 ((i * 131 + j * 71) % 97) - 40) (iota m)) (iota n)

def check [n][m] (a: [n][m]i32) : i64 =
  i64.sum (map (\i -> i64.sum (map (\j -> i64.i32 a[i, j] * ((i * 7 + j * 3) % 11 + 1)) (iota m))) (iota n))

def istep [n][m] (a: [n][m]i32) : [n][m]i32 =
  map (\i -> map (\j ->
      let up = a[i64.max (i - 1) 0, j]
      let down = a[i64.min (i + 1) (n - 1), j]
      let left = a[i, i64.max (j - 1) 0]
      let right = a[i, i64.min (j + 1) (m - 1)]
      in (a[i, j] * 3 + up + down + left + right) / 5 + i32.i64 ((i * 3 + j) % 4)) (iota m)) (iota n)

-- ==
-- entry: rows
-- input { 3i64 70i64 2i64 } output { 21545i64 }
-- input { 5i64 130i64 3i64 } output { 105335i64 }
-- input { 2i64 64i64 1i64 } output { 8316i64 }
-- input { 1i64 200i64 4i64 } output { 46705i64 }
-- input { 7i64 33i64 2i64 } output { 22713i64 }
-- input { 64i64 1i64 3i64 } output { 9434i64 }
-- input { 130i64 3i64 2i64 } output { 43922i64 }
-- input { 100i64 0i64 1i64 } output { 0i64 }
-- input { 0i64 5i64 2i64 } output { 0i64 }
-- input { 300i64 257i64 5i64 } output { 25406351i64 }
entry rows (n: i64) (m: i64) (k: i64) : i64 =
  check (loop a = grid n m for _i < k do istep a)

-- Three dimensions, the innermost clamped.
-- ==
-- entry: cube
-- input { 2i64 3i64 70i64 } output { -22386i64 }
-- input { 2i64 2i64 130i64 } output { 23229i64 }
-- input { 3i64 5i64 64i64 } output { -67228i64 }
-- input { 4i64 3i64 2i64 } output { -5240i64 }
entry cube (p: i64) (n: i64) (m: i64) : i64 =
  let a = map (\h -> grid n m |> map (map (+ i32.i64 h))) (iota p)
  let b = map (\h -> map (\i -> map (\j ->
            a[h, i, j] - a[h, i, i64.max (j - 1) 0] + a[i64.min (h + 1) (p - 1), i, i64.min (j + 1) (m - 1)])
            (iota m)) (iota n)) (iota p)
  in i64.sum (map (\h -> check b[h] * (h + 1)) (iota p))

-- An offset from the input: 1 keeps every interval within 32 bits; 2^40
-- does not (the clamps still keep the reads in bounds), and the 64-bit
-- copy must give the same.
-- ==
-- entry: offset
-- input { 3i64 100i64 1i64 } output { 27301i64 }
-- input { 3i64 100i64 1099511627776i64 } output { 1433i64 }
-- input { 2i64 70i64 2i64 } output { 17703i64 }
entry offset (n: i64) (m: i64) (off: i64) : i64 =
  let a = grid n m
  in check (map (\i -> map (\j -> a[i, i64.min (j + off) (m - 1)] + a[i, i64.max (j - off) 0]) (iota m)) (iota n))
