-- A loop with several accumulators, one an array that grows each round
-- (its size changes between iterations, as Futhark allows).
-- ==
-- input { 4i64 } output { [0i64, 0i64, 1i64, 0i64, 1i64, 2i64] 6i64 16i64 }
entry main (n: i64) =
  let (xs, count, sum) =
    loop (xs, count, sum) = ([], 0, 0) for i < n do
      (xs ++ iota i, count + i, sum + i * (i + 1) / 2 + i)
  in (xs, count, sum)
