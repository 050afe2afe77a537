-- Maximum segment sum: one non-commutative redomap over a 4-tuple.
def max = i32.max

def redOp (mssx: i32, misx: i32, mcsx: i32, tsx: i32)
          (mssy: i32, misy: i32, mcsy: i32, tsy: i32) : (i32, i32, i32, i32) =
  ( max mssx (max mssy (mcsx + misy))
  , max misx (tsx + misy)
  , max mcsy (mcsx + tsy)
  , tsx + tsy )

def mapOp (x: i32) : (i32, i32, i32, i32) =
  (max x 0, max x 0, max x 0, x)

entry main (xs: []i32) : i32 =
  (reduce redOp (0, 0, 0, 0) (map mapOp xs)).0
