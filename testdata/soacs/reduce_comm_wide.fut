-- reduce_comm with general (tuple) operators: the CPU interpreter folds them
-- through wide accumulators, across chunk and worker boundaries.
def data (n: i64) : []i64 = map (\i -> (i * 7919) % 10007 - 5000) (iota n)

def sumpos (a: i64, c: i64) (b: i64, d: i64) : (i64, i64) = (a + b, c + d)

def argmax (xv: i64, xi: i64) (yv: i64, yi: i64) : (i64, i64) =
  if xv < yv then (yv, yi)
  else if yv < xv then (xv, xi)
  else if xi < yi then (xv, xi) else (yv, yi)

-- ==
-- entry: stats
-- input { 0i64 } output { 0i64 0i64 }
-- input { 1i64 } output { -5000i64 0i64 }
-- input { 1023i64 } output { 3838i64 512i64 }
-- input { 1024i64 } output { 4312i64 513i64 }
-- input { 1025i64 } output { 2698i64 513i64 }
-- input { 4097i64 } output { 24823i64 2051i64 }
-- input { 100003i64 } output { 301840i64 50026i64 }
entry stats (n: i64) : (i64, i64) =
  reduce_comm sumpos (0, 0) (map (\x -> (x, if x > 0 then 1 else 0)) (data n))

-- ==
-- entry: amax
-- input { 0i64 } output { -1i64 }
-- input { 1i64 } output { 0i64 }
-- input { 1023i64 } output { 393i64 }
-- input { 1024i64 } output { 393i64 }
-- input { 1025i64 } output { 393i64 }
-- input { 4097i64 } output { 1040i64 }
-- input { 100003i64 } output { 1040i64 }
entry amax (n: i64) : i64 =
  let (_, i) = reduce_comm argmax (i64.lowest, i64.highest) (zip (data n) (iota n))
  in if n == 0 then -1 else i
