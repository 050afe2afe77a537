-- IndexOfMaxPack (redomap paper, benchmark 4): like IndexOfMax, but the value
-- and the index are packed into one i64 (value in the high 32 bits, index in
-- the low 32), so the reduction works on a single scalar.

def pack (v: i32) (i: i64) : i64 = (i64.i32 v << 32) | (i & 0xFFFFFFFF)

def value (x: i64) : i32 = i32.i64 (x >> 32)

def index (x: i64) : i64 = x & 0xFFFFFFFF

def max_with_index (x: i64) (y: i64) : i64 =
  let (xv, xi) = (value x, index x)
  let (yv, yi) = (value y, index y)
  in if xv < yv then y
     else if yv < xv then x
     else if xi < yi then x else y

-- ==
-- input { [3i32, 9i32, -2i32, 9i32, 4i32] } output { 1i64 }
-- input { [-7i32, -9i32] } output { 0i64 }
-- input { [1i32, 2i32, 3i32] } output { 2i64 }
-- plan { redomap 1 map 0 }
entry main [n] (xs: [n]i32) : i64 =
  let packed = map2 pack xs (iota n)
  in index (reduce_comm max_with_index (pack i32.lowest 0xFFFFFFFF) packed)
