-- `?[k].t` return types: a function whose result size it computes.
def positives [m] (xs: [m]i32) : ?[k].[k]i32 = filter (>0) xs

def split_signs (xs: []i32) : ?[a][b].([a]i32, [b]i32) = (filter (>0) xs, filter (<0) xs)

-- ==
-- input { [1,-2,3] } output { [1,3] [-2] 3i64 }
entry main (xs: []i32) =
  let (p, n) = split_signs xs
  in (positives xs, n, length p + length n)
