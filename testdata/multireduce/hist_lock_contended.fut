-- hist with a tuple operator (per-bucket locks on the GPU) over far more
-- elements than buckets: the GPU sorts the elements by bucket first (thesis
-- §4.4), so that a warp takes a lock once per bucket it holds.
-- ==
-- input { 100000i64 } output { [33334i64, 33333i64, 33333i64] [999i32, 1016i32, 1033i32] }
-- input { 10i64 } output { [4i64, 3i64, 3i64] [757i32, 800i32, 328i32] }
entry main (n: i64) : ([]i64, []i32) =
  let is = map (\i -> i % 3) (iota n)
  let vs = map (\i -> (1i64, i32.i64 ((i * 7919) % (1000 + (i % 3) * 17)))) (iota n)
  in unzip (hist (\(c1, m1) (c2, m2) -> (c1 + c2, i32.max m1 m2)) (0, i32.lowest) 3 is vs)
