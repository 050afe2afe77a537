-- Prelude functions inline to the builtins they stand for, so they fuse:
-- tabulate, a map and a sum become one redomap.
-- ==
-- input { 5i64 } output { 35i64 }
-- plan { redomap 1 }
entry main (n: i64) : i64 = tabulate n (\i -> i * 3) |> map (+ 1) |> i64.sum
