-- MSSP (redomap paper, benchmark 6): the maximum segment sum. Each element
-- becomes a 4-tuple (best segment, best prefix, best suffix, total); the
-- operator combining two tuples is associative but not commutative.

def mss_op (mssx: i32, misx: i32, mcsx: i32, tsx: i32)
           (mssy: i32, misy: i32, mcsy: i32, tsy: i32) : (i32, i32, i32, i32) =
  ( i32.max mssx (i32.max mssy (mcsx + misy))
  , i32.max misx (tsx + misy)
  , i32.max mcsy (mcsx + tsy)
  , tsx + tsy )

def mss_map (x: i32) : (i32, i32, i32, i32) =
  let p = i32.max x 0 in (p, p, p, x)

-- ==
-- input { [1i32, -2i32, 3i32, 4i32, -1i32, 2i32, -10i32, 3i32] } output { 8i32 }
-- input { empty([0]i32) } output { 0i32 }
-- input { [-1i32, -2i32] } output { 0i32 }
-- input { [2i32, -1i32, 2i32, -1i32, 2i32] } output { 4i32 }
-- plan { redomap 1 map 0 }
entry main (xs: []i32) : i32 =
  let (best, _, _, _) = reduce mss_op (0, 0, 0, 0) (map mss_map xs)
  in best
