-- A realistic program: every statement form in one place.
def mssp [n] (xs: [n]i32) : i32 =
  let max = i32.max
  let redOp (mssx, misx, mcsx, tsx) (mssy, misy, mcsy, tsy) =
    ( max mssx (max mssy (mcsx + misy))
    , max misx (tsx + misy)
    , max mcsy (mcsx + tsy)
    , tsx + tsy )
  let mapOp x = (max x 0, max x 0, max x 0, x)
  in (reduce redOp (0, 0, 0, 0) (map mapOp xs)).0

def histo (k: i64) (is: []i64) : []i32 =
  reduce_by_index (replicate k 0) (+) 0 is (map (\_ -> 1) is)

def step [n] (a: *[n]f32) (i: i64) : *[n]f32 =
  let a[i] = a[i] * 2f32
  let b = a with [0] = 1f32
  in b

def sum_loop (n: i32) =
  loop (s, i) = (0, 0) while i < n do (s + i, i + 1)

def prefix (xs: []i32) = scan (+) 0 xs |> map (*2) |> filter (>0)

entry main (xs: []i32) : (i32, i64) =
  let ys = xs[1:] ++ xs[:1]
  let zs = map2 (\x y -> if x < y then x else y) xs ys
  in (mssp zs, length (filter (\z -> z % 2 == 0 && z != 0) zs))
