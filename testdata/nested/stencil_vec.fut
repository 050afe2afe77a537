-- Vector steps of segmented maps (eval/gpu/vecstep.go): four neighbouring
-- points of a row a thread, a row's reads as one 16-byte load. Taken where
-- the innermost dimension is a multiple of 4, the arrays' rows are too and
-- the clamps are inactive for the lanes that use the vector; every other
-- case (odd widths, misaligned rows, borders where a clamp bites, 8-byte
-- elements, reads under a branch) runs the scalar body, and must give the
-- same. Every entry returns a weighted checksum of all the elements' bits,
-- so that one misplaced or wrong element changes it.

def fgrid (n: i64) (m: i64) : [n][m]f32 =
  map (\i -> map (\j -> f32.i64 ((i * 131 + j * 71) % 97) * 0.25 - 9) (iota m)) (iota n)

def igrid (n: i64) (m: i64) : [n][m]i32 =
  map (\i -> map (\j -> i32.i64 ((i * 131 + j * 71) % 97) - 40) (iota m)) (iota n)

def fcheck [n][m] (a: [n][m]f32) : i64 =
  i64.sum (map (\i -> i64.sum (map (\j -> i64.u32 (f32.to_bits a[i, j]) * ((i * 7 + j * 3) % 11 + 1)) (iota m))) (iota n))

def icheck [n][m] (a: [n][m]i32) : i64 =
  i64.sum (map (\i -> i64.sum (map (\j -> i64.i32 a[i, j] * ((i * 7 + j * 3) % 11 + 1)) (iota m))) (iota n))

-- The benchmark's clamped 5-point stencil in f32, iterated.
def fstep [n][m] (a: [n][m]f32) : [n][m]f32 =
  map (\i -> map (\j ->
      let up = a[i64.max (i - 1) 0, j]
      let down = a[i64.min (i + 1) (n - 1), j]
      let left = a[i, i64.max (j - 1) 0]
      let right = a[i, i64.min (j + 1) (m - 1)]
      in (a[i, j] + up + down + left + right) / 5) (iota m)) (iota n)

-- ==
-- entry: fstencil
-- input { 3i64 1i64 2i64 } output { 33205675623i64 }
-- input { 3i64 3i64 2i64 } output { 60372350359i64 }
-- input { 3i64 4i64 2i64 } output { 80021783815i64 }
-- input { 3i64 5i64 2i64 } output { 97534617828i64 }
-- input { 3i64 7i64 2i64 } output { 177684055290i64 }
-- input { 3i64 8i64 3i64 } output { 159397284159i64 }
-- input { 5i64 33i64 2i64 } output { 1103987579308i64 }
-- input { 2i64 4097i64 2i64 } output { 57254616505166i64 }
-- input { 2i64 4096i64 2i64 } output { 57238645098827i64 }
-- input { 1i64 12i64 3i64 } output { 95607574228i64 }
-- input { 0i64 8i64 2i64 } output { 0i64 }
-- input { 4i64 0i64 2i64 } output { 0i64 }
entry fstencil (n: i64) (m: i64) (k: i64) : i64 =
  fcheck (loop a = fgrid n m for _i < k do fstep a)

-- i32, with reads further along the row than the vector reaches (j + 2,
-- j - 3) and a lower clamp that is not 0, so that the first steps of a
-- row fail the step's bounds and run the scalar body.
def istep [n][m] (a: [n][m]i32) : [n][m]i32 =
  map (\i -> map (\j ->
      let c = a[i, j]
      let r2 = a[i, i64.max (i64.min (j + 2) (m - 3)) 0]
      let l3 = a[i64.min (i + 1) (n - 1), i64.min (i64.max (j - 3) 5) (m - 1)]
      let r1 = a[i, i64.min (j + 1) (m - 1)]
      in c * 3 - r2 + l3 * 2 + r1 + i32.i64 ((i * 3 + j) % 4)) (iota m)) (iota n)

-- ==
-- entry: istencil
-- input { 3i64 4i64 2i64 } output { 53949i64 }
-- input { 3i64 5i64 2i64 } output { 23392i64 }
-- input { 4i64 8i64 3i64 } output { 169095i64 }
-- input { 2i64 12i64 1i64 } output { -11417i64 }
-- input { 3i64 33i64 2i64 } output { -55003i64 }
-- input { 5i64 64i64 2i64 } output { 124471i64 }
-- input { 2i64 4097i64 1i64 } output { 2013089i64 }
-- input { 0i64 4i64 1i64 } output { 0i64 }
entry istencil (n: i64) (m: i64) (k: i64) : i64 =
  icheck (loop a = igrid n m for _i < k do istep a)

-- A space narrower than the array: rows of m + pad elements, so that the
-- rows start 16-byte aligned only when m + pad is a multiple of 4.
-- ==
-- entry: padded
-- input { 3i64 8i64 4i64 } output { 2737i64 }
-- input { 3i64 8i64 5i64 } output { 545i64 }
-- input { 3i64 3i64 1i64 } output { 148i64 }
-- input { 2i64 1i64 3i64 } output { -621i64 }
-- input { 4i64 12i64 8i64 } output { 2459i64 }
entry padded (n: i64) (m: i64) (pad: i64) : i64 =
  let a = igrid n (m + pad)
  in icheck (map (\i -> map (\j -> a[i, j + 1] * 2 - a[i, j + pad] + a[i, j]) (iota m)) (iota n))

-- Rows misaligned by a slice on the host, and a 1-D stencil.
-- ==
-- entry: sliced
-- input { 4i64 9i64 } output { 11638i64 }
-- input { 3i64 5i64 } output { 2697i64 }
-- input { 3i64 13i64 } output { -3192i64 }
entry sliced (n: i64) (m: i64) : i64 =
  let a = igrid n m
  let b = a[1:, 1:]
  in icheck (istep b) + icheck (istep (copy a[:, 1:m - 4]))

-- ==
-- entry: line
-- input { 1i64 } output { -80i64 }
-- input { 3i64 } output { 169i64 }
-- input { 4i64 } output { 191i64 }
-- input { 5i64 } output { -461i64 }
-- input { 8i64 } output { 145i64 }
-- input { 33i64 } output { 2822i64 }
-- input { 4097i64 } output { 393894i64 }
-- input { 0i64 } output { 0i64 }
entry line (n: i64) : i64 =
  let a = igrid 1 n
  let b = map (\j -> a[0, i64.max (j - 1) 0] + a[0, j] * 2 - a[0, i64.min (j + 1) (n - 1)]) (iota n)
  in icheck [b]

-- Results of several types: f32 stored as a vector, bool and i64 as
-- scalars.
-- ==
-- entry: multi
-- input { 3i64 8i64 } output { 283284866281i64 }
-- input { 2i64 5i64 } output { 113859625575i64 }
-- input { 1i64 4i64 } output { 62786633663i64 }
-- input { 2i64 0i64 } output { 0i64 }
entry multi (n: i64) (m: i64) : i64 =
  let a = igrid n m
  let (f, b, w) = unzip3 (map (\i -> unzip3 (map (\j ->
                    let x = a[i, j] + a[i, i64.min (j + 1) (m - 1)]
                    in (f32.i32 x * 0.5, x > 0, i64.i32 x * 3)) (iota m))) (iota n))
  in fcheck f + icheck (map (map (\x -> if x then 1 else 0)) b) * 7 + i64.sum (map i64.sum w)

-- f64 elements (8 bytes: the scalar body).
-- ==
-- entry: wide
-- input { 3i64 8i64 } output { 198i64 }
-- input { 2i64 5i64 } output { -91i64 }
entry wide (n: i64) (m: i64) : i64 =
  let a = map (map f64.i32) (igrid n m)
  let d = map (\i -> map (\j -> a[i, j] * 2 + a[i, i64.max (j - 1) 0] + a[i64.max (i - 1) 0, j]) (iota m)) (iota n)
  in icheck (map (map i32.f64) d)

-- A read under a branch (not a lane: only some points run it).
-- ==
-- entry: branch
-- input { 3i64 8i64 } output { 93i64 }
-- input { 2i64 5i64 } output { 887i64 }
entry branch (n: i64) (m: i64) : i64 =
  let a = igrid n m
  in icheck (map (\i -> map (\j -> if j % 2 == 0 then a[i, j] else a[i, i64.min (j + 1) (m - 1)] - 1) (iota m)) (iota n))

-- Columns counted from 1 (an iota shifted by a constant), in rows of m + 4.
-- ==
-- entry: from1
-- input { 3i64 8i64 } output { -735i64 }
-- input { 3i64 9i64 } output { -207i64 }
-- input { 2i64 5i64 } output { -704i64 }
-- input { 2i64 1i64 } output { -489i64 }
entry from1 (n: i64) (m: i64) : i64 =
  let a = igrid n (m + 4)
  in icheck (map (\i -> map (\j -> a[i, j - 1] * 3 + a[i, j]) (map (+ 1) (iota m))) (iota n))

-- The same kernel launched on the same shapes with its array starting s
-- elements further into a flat one each trip of a loop: its rows 16-byte
-- aligned at every fourth trip only. The host's remembered answers
-- (vecHost.checkCached) are keyed by the arrays' alignment, so each trip
-- must take the path its own alignment allows.
-- ==
-- entry: shifts
-- input { 3i64 8i64 6i64 } output { 1082409i64 }
-- input { 4i64 12i64 9i64 } output { 164864547i64 }
-- input { 2i64 16i64 5i64 } output { 535007i64 }
entry shifts (n: i64) (m: i64) (k: i64) : i64 =
  let f = flatten (igrid (n + 1) (m + k))
  in loop acc = 0 for s < k do
       let b : [n][m]i32 = unflatten (f[s:s + n * m] :> [n * m]i32)
       in acc * 3 + icheck (istep b)
