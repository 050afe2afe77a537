-- Row and column reductions and scans with map bodies whose operator does
-- not commute: the composition of linear functions on i32, (a, b) then
-- (c, d) is (a*c, b*c + d), which wraps exactly, so any fold out of order
-- (a piece of a row, a thread's chunk, a block's partial combined in the
-- wrong place) changes the result. Segment lengths 1, 2, 3, 31, 32, 33 and
-- 1000, rows and columns, and empty dimensions in every position; entries
-- long and longcol take segments of 2^20 (the GPU cuts those into pieces
-- over several blocks and combines the pieces in order). Expected values
-- computed independently (a Python model of the same arithmetic).
def lin (a: i32, b: i32) (c: i32, d: i32) : (i32, i32) = (a * c, b * c + d)

-- Elements of a deterministic n x m matrix, between -504 and 504.
def mat (n: i64) (m: i64) : [n][m]i32 =
  unflatten (map (\k -> i32.i64 ((k * 7919 + 13) % 1009) - 504) (iota (n * m)))

-- The maps in front of the operator: one for rows, one for columns.
def fr (x: i32) : (i32, i32) = (1 - 2 * (x % 2), x)
def fc (x: i32) : (i32, i32) = let r = x % 3 in (if r == 1 then 2 else r - 1, x * 2)

-- A checksum that depends on the order of xs.
def check [k] (xs: [k]i32) : i64 = i64.sum (map2 (\i x -> (i + 1) * i64.i32 x) (iota k) xs)

-- ==
-- entry: main
-- input { 4i64 1i64 } output { -4i64 1111i64 2i64 290i64 1111i64 190i64 }
-- input { 3i64 2i64 } output { -4i64 91i64 4i64 -38i64 -143i64 4948i64 }
-- input { 5i64 3i64 } output { -9i64 -1736i64 6i64 -7242i64 -21272i64 -29526i64 }
-- input { 4i64 31i64 } output { 10i64 -1480i64 116i64 -19284i64 -269505i64 -84018i64 }
-- input { 4i64 32i64 } output { 2i64 -134i64 -232i64 171680i64 -204647i64 995636i64 }
-- input { 4i64 33i64 } output { -10i64 -2230i64 -294i64 -19178i64 -530744i64 -212590i64 }
-- input { 3i64 1000i64 } output { -6i64 -19762i64 -23964i64 -3366832i64 905733140i64 -1492162i64 }
-- input { 1000i64 3i64 } output { -756i64 -44786398i64 0i64 616394454i64 -118815184i64 -73899381592724i64 }
-- input { 33i64 31i64 } output { 47i64 -32345i64 -130048i64 109656380i64 4522307i64 -6668195646i64 }
-- input { 31i64 33i64 } output { 30i64 -269261i64 109568i64 87829766i64 -765984i64 954058552i64 }
-- input { 0i64 5i64 } output { 0i64 0i64 15i64 0i64 0i64 0i64 }
-- input { 5i64 0i64 } output { 15i64 0i64 0i64 0i64 0i64 0i64 }
-- input { 0i64 0i64 } output { 0i64 0i64 0i64 0i64 0i64 0i64 }
-- input { 1i64 1i64 } output { -1i64 -491i64 2i64 -982i64 -491i64 -982i64 }
entry main (n: i64) (m: i64) : (i64, i64, i64, i64, i64, i64) =
  let a = mat n m
  let (ra, rb) = unzip (map (\r -> reduce lin (1, 0) (map fr r)) a)
  let (ca, cb) = unzip (map (\c -> reduce lin (1, 0) (map fc c)) (transpose a))
  let rscan = map (\r -> scan lin (1, 0) (map fr r)) a
  let cscan = map (\c -> scan lin (1, 0) (map fc c)) (transpose a)
  in (check ra, check rb, check ca, check cb,
      check (flatten (map (\r -> map (.1) r) rscan)), check (flatten (map (\c -> map (.1) c) cscan)))

-- Rows of 2^20 and of 2^20 + 1.
-- ==
-- entry: long
-- input { 2i64 1048576i64 } output { 1i64 -30702841i64 -25582198i64 }
-- input { 3i64 1048577i64 } output { 6i64 61403170i64 81873493i64 }
entry long (n: i64) (m: i64) : (i64, i64, i64) =
  let a = mat n m
  let (ra, rb) = unzip (map (\r -> reduce lin (1, 0) (map fr r)) a)
  let rscan = map (\r -> scan lin (1, 0) (map fr r)) a
  in (check ra, check rb, i64.sum (map2 (\i r -> (i + 1) * (i64.i32 r[m - 1].1 + i64.i32 r[m / 2].1)) (iota n) rscan))

-- Columns of 2^20.
-- ==
-- entry: longcol
-- input { 1048576i64 2i64 } output { 0i64 5058598974i64 3112308204i64 }
entry longcol (n: i64) (m: i64) : (i64, i64, i64) =
  let a = mat n m
  let (ca, cb) = unzip (map (\c -> reduce lin (1, 0) (map fc c)) (transpose a))
  let cscan = map (\c -> scan lin (1, 0) (map fc c)) (transpose a)
  in (check ca, check cb, i64.sum (map2 (\i c -> (i + 1) * (i64.i32 c[n - 1].1 + i64.i32 c[n / 3].1)) (iota m) cscan))
