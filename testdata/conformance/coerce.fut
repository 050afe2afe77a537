-- :> gives a value the sizes of a type.
-- ==
-- input { [1i32, 2i32, 3i32] } output { [2i32, 4i32, 6i32] }
entry main [n] (xs: [n]i32) : [n]i32 = map (* 2) (xs[0:n] :> [n]i32)
