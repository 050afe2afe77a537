-- f16 arrays through the SOACs: maps round every element, and reductions,
-- scans and histograms combine halves. The inputs are chosen so that
-- every partial result is exact or overflows whatever the order, since
-- the backends combine in different orders.

-- map: x * 1.1 then + 0.5, both rounded (bits from Python's struct 'e')
-- ==
-- entry: maps
-- input { [0.1f16, 0.2f16, 0.3f16, 1.7f16, 1000.3f16] }
-- output { [0x2f09u16, 0x3309u16, 0x3547u16, 0x3f7au16, 0x644cu16]
--          [0x38e1u16, 0x39c2u16, 0x3aa4u16, 0x40bdu16, 0x644cu16] }
entry maps (xs: []f16) : ([]u16, []u16) =
  let ys = map (\x -> x * 1.1f16) xs
  in (map f16.to_bits ys, map (\y -> f16.to_bits (y + 0.5)) ys)

-- sums, products, extremes and a scan over generated arrays, large enough
-- to run in parallel
-- ==
-- entry: reductions
-- input { 1000i64 } output { 500f16 f16.inf 0x3c00u16 2f16 0f16 1f16 2f16 }
-- input { 100000i64 } output { 500f16 f16.inf 0x3c00u16 2f16 0f16 100f16 2f16 }
entry reductions (n: i64) : (f16, f16, u16, f16, f16, f16, f16) =
  let halves = map (\i -> if i < 100000 then 0.5f16 else 0) (iota n)
  let big = replicate n 40000f16
  let thirds = map (\i -> f16.i64 (i % 3)) (iota n)
  let ones = map (\i -> if i % 1000 == 0 then 1f16 else 0) (iota n)
  in (f16.sum (take 1000 (map (\x -> x * 1000 / 1000) halves)),
      f16.sum big,
      f16.to_bits (f16.product (replicate n 1f16)),
      f16.maximum thirds, f16.minimum thirds,
      reduce (+) 0 ones,
      (scan f16.max f16.lowest thirds)[n-1])

-- scan (+) over small integers: every prefix sum is an integer below 2048
-- ==
-- entry: prefix
-- input { [1f16, 2f16, 3f16, 4f16, 0.5f16] } output { [1f16, 3f16, 6f16, 10f16, 10.5f16] 10.5f16 }
-- input { empty([0]f16) } output { empty([0]f16) 0f16 }
entry prefix (xs: []f16) : ([]f16, f16) = (scan (+) 0 xs, reduce (+) 0 xs)

-- reduce_by_index, segmented sums of rows, filter and scatter
-- ==
-- entry: others
-- input { [0i64, 1i64, 1i64, 2i64, 2i64, 2i64] [0.5f16, 0.25f16, 0.25f16, 1f16, 2f16, 4f16] }
-- output { [0.5f16, 0.5f16, 7f16] [1f16, 7f16] [1f16, 2f16, 4f16] [4f16, 0f16, 2f16] }
entry others (is: []i64) (vs: []f16) : ([]f16, []f16, []f16, []f16) =
  let h = reduce_by_index (replicate 3 0f16) (+) 0 is vs
  let rows = map (reduce (+) 0) (unflatten (vs :> [2*3]f16))
  let big = filter (>= 1) vs
  let sc = scatter (replicate 3 0f16) [2, 0] [2f16, 4f16]
  in (h, rows, big, sc)

-- a large reduce_by_index (two values a bin, so exact in any order)
-- ==
-- entry: bighist
-- input { 100000i64 } output { [6f16, 1f16, 3f16] 9f16 }
-- input { 2000000i64 } output { [1f16, 3f16, 5f16] 1f16 }
entry bighist (n: i64) : ([]f16, f16) =
  let h = n / 2
  let hs = reduce_by_index (replicate h 0f16) (+) 0 (map (% h) (iota n)) (map (\i -> f16.i64 (i % 7)) (iota n))
  in (take 3 hs, hs[h-1])
