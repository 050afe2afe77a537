-- Reductions and scans whose operator is max or min written with an if
-- (the interpreter runs them as builtin max/min on integers); on floats the
-- if stays a general operator (it is not associative in the presence of NaN,
-- so only NaN-free data is tested).
def mx (x: i32) (y: i32) = if x < y then y else x
def mn (x: i64) (y: i64) = if x > y then y else x
def mxu (x: u8) (y: u8) = if y >= x then y else x
def fmx (x: f64) (y: f64) = if x < y then y else x

-- ==
-- entry: maxi
-- input { [3, -7, 12, 12, -100, 5] } output { 12 }
-- input { empty([0]i32) } output { -2147483648 }
entry maxi (xs: []i32) : i32 = reduce mx i32.lowest xs

-- ==
-- entry: mini
-- input { [3i64, -7i64, 12i64, -100i64, 5i64] } output { -100i64 }
entry mini (xs: []i64) : i64 = reduce mn i64.highest xs

-- ==
-- entry: scanmaxu
-- input { [3u8, 200u8, 7u8, 255u8, 0u8] } output { [3u8, 200u8, 200u8, 255u8, 255u8] }
entry scanmaxu (xs: []u8) : []u8 = scan mxu 0u8 xs

-- ==
-- entry: fmax
-- input { [1.0, -2.5, 3.0, 0.5] } output { 3.0 }
-- input { empty([0]f64) } output { -f64.inf }
entry fmax (xs: []f64) : f64 = reduce fmx (-f64.inf) xs
