-- Pattern forms in loop parameters: tuples of arrays and scalars, a
-- record, an ascription; for-in over zipped arrays with a tuple pattern.
-- ==
-- input { [1, 2, 3] [4, 5, 6] } output { 32 [5, 12, 21] 3 }
entry main (xs: []i32) (ys: []i32) =
  let (dot, acc: []i32) =
    loop (d, acc) = (0, replicate 3 0) for (x, y) in zip xs ys do
      let i = x - 1
      in (d + x * y, acc with [i] = (if i == 0 then 0 else acc[i - 1]) + x + y)
  let {n} = loop {n} = {n = 0} while n < 3 do {n = n + 1}
  in (dot, acc, n)
