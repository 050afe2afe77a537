-- Arrays of tuples: literals, indexing, and unzip.
-- ==
-- input { 2i32 } output { [2i32, 3i32] [2.5f64, 4.0f64] 3i32 4.0f64 }
entry main (x: i32) : ([]i32, []f64, i32, f64) =
  let ps = [(x, 2.5), (x + 1, 4.0)]
  let (as, bs) = unzip ps
  in (as, bs, ps[1].0, ps[1].1)
