-- |> has the lowest precedence: x + 1 |> f is f (x + 1).
-- ==
-- input { 5i32 } output { 12i32 }
entry main (x: i32) : i32 = x + 1 |> (*2)
