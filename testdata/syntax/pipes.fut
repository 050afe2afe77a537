-- |> feeds a value to a function; <| applies a function to a value.
-- ==
-- input { [1i32, 2i32, 3i32] } output { 9i32 12i32 }
entry main (xs: []i32) : (i32, i32) =
  let a = xs |> map (+1) |> reduce (+) 0
  let b = reduce (+) 0 <| map (*2) <| xs
  in (a, b)
