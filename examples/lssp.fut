-- LSSP, the longest satisfying segment problem (segmented-scan thesis, B.1):
-- the length of the longest run of consecutive elements that satisfy pred1
-- and whose neighbours satisfy pred2 (here: the longest sorted run). The
-- scan's operator works on 6-tuples; applied to every row of a matrix it is
-- a regular segmented scan.

def scan_op (pred2: i32 -> i32 -> bool)
            (lssx: i32, lisx: i32, lcsx: i32, tlx: i32, firstx: i32, lastx: i32)
            (lssy: i32, lisy: i32, lcsy: i32, tly: i32, firsty: i32, lasty: i32)
            : (i32, i32, i32, i32, i32, i32) =
  let connect = pred2 lastx firsty || tlx == 0 || tly == 0
  let newlss = if connect then i32.max (i32.max (lcsx + lisy) lssx) lssy
               else i32.max lssx lssy
  let newlis = if lisx == tlx && connect then tlx + lisy else lisx
  let newlcs = if lcsy == tly && connect then tly + lcsx else lcsy
  let newtl = tlx + tly
  let first = if tlx == 0 then firsty else firstx
  let last = if tly == 0 then lastx else lasty
  in (newlss, newlis, newlcs, newtl, first, last)

def map_op (pred1: i32 -> bool) (x: i32) : (i32, i32, i32, i32, i32, i32) =
  let xmatch = if pred1 x then 1 else 0
  in (xmatch, xmatch, xmatch, 1, x, x)

def lssp [n] (pred1: i32 -> bool) (pred2: i32 -> i32 -> bool) (xs: [n]i32) : i32 =
  let ys = scan (scan_op pred2) (0, 0, 0, 0, 0, 0) (map (map_op pred1) xs)
  in if n == 0 then 0 else ys[n - 1].0

-- ==
-- entry: sorted
-- input { [1i32, 2i32, 3i32, 1i32, 2i32, 3i32, 4i32, 0i32] } output { 4i32 }
-- input { empty([0]i32) } output { 0i32 }
-- input { [3i32, 2i32, 1i32] } output { 1i32 }
-- input { [1i32, 1i32, 2i32, 2i32, 1i32] } output { 4i32 }
-- plan { scanomap 1 map 0 }
entry sorted (xs: []i32) : i32 = lssp (\_ -> true) (\x y -> x <= y) xs

-- The thesis' benchmark: one problem per row.
-- ==
-- entry: sorted_rows
-- input { [[1i32, 2i32, 0i32, 5i32], [4i32, 3i32, 2i32, 1i32], [0i32, 0i32, 0i32, 0i32]] }
-- output { [2i32, 1i32, 4i32] }
entry sorted_rows [m] [n] (xss: [m][n]i32) : [m]i32 = map (lssp (\_ -> true) (\x y -> x <= y)) xss

-- Another predicate: the longest run of positive numbers.
-- ==
-- entry: positive
-- input { [1i32, -2i32, 3i32, 4i32, 5i32, 0i32, 7i32] } output { 3i32 }
entry positive (xs: []i32) : i32 = lssp (> 0) (\_ _ -> true) xs
