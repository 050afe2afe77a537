-- Ranges feed SOACs and fuse with them like iota.
-- ==
-- input { 10i64 } output { 285i64 }
-- plan { redomap 1 }
entry main (n: i64) : i64 = map (\i -> i * i) (0..<n) |> i64.sum
