-- A radix sort of every row of a matrix (segmented-scan thesis, B.2): two
-- bits per step, with one scan over 4-tuples of i64 counters per step. The
-- map over rows makes each scan a regular segmented scan.

def add4 (a0: i64, a1: i64, a2: i64, a3: i64) (b0: i64, b1: i64, b2: i64, b3: i64) : (i64, i64, i64, i64) =
  (a0 + b0, a1 + b1, a2 + b2, a3 + b3)

def radix_step [n] (xs: [n]u32) (b: i32) : [n]u32 =
  let digit (x: u32) : i32 = i32.u32 ((x >> u32.i32 b) & 3)
  let flags = map (\x -> let d = digit x
                         in (i64.bool (d == 0), i64.bool (d == 1), i64.bool (d == 2), i64.bool (d == 3))) xs
  let offs = scan add4 (0, 0, 0, 0) flags
  let (c0, c1, c2, _) = if n == 0 then (0, 0, 0, 0) else offs[n - 1]
  let pos = map2 (\x (o0, o1, o2, o3) ->
                    let d = digit x
                    in if d == 0 then o0 - 1
                       else if d == 1 then c0 + o1 - 1
                       else if d == 2 then c0 + c1 + o2 - 1
                       else c0 + c1 + c2 + o3 - 1) xs offs
  in scatter (replicate n 0) pos xs

def radix_sort [n] (xs: [n]u32) : [n]u32 =
  loop ys = xs for i < 16 do radix_step ys (i * 2)

-- ==
-- entry: main
-- input { [[5u32, 3u32, 9u32], [4294967295u32, 0u32, 2147483648u32], [1u32, 1u32, 0u32]] }
-- output { [[3u32, 5u32, 9u32], [0u32, 2147483648u32, 4294967295u32], [0u32, 1u32, 1u32]] }
-- input { empty([0][4]u32) } output { empty([0][4]u32) }
entry main [m] [n] (xss: [m][n]u32) : [m][n]u32 = map radix_sort xss

-- ==
-- entry: one
-- input { [10u32, 2u32, 33u32, 2u32, 0u32] } output { [0u32, 2u32, 2u32, 10u32, 33u32] }
entry one (xs: []u32) : []u32 = radix_sort xs
