-- unflatten takes its result sizes from its argument's type [n*m]t, as in
-- Futhark: from a flatten, a parameter typed [n*m]t, or a coercion.
-- ==
-- entry: regroup
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] }
-- output { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] }

-- ==
-- entry: piped
-- input { [[1i32, 2i32], [3i32, 4i32], [5i32, 6i32]] }
-- output { [9i32, 12i32] }

-- ==
-- entry: from_param
-- input { [1i32, 2i32, 3i32, 4i32, 5i32, 6i32] [0i32, 0i32] [0i32, 0i32, 0i32] }
-- output { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] }

-- ==
-- entry: coerced
-- input { [1i32, 2i32, 3i32, 4i32, 5i32, 6i32] 3i64 2i64 }
-- output { [[1i32, 2i32], [3i32, 4i32], [5i32, 6i32]] }
-- input { [1i32, 2i32, 3i32, 4i32] -2i64 -2i64 }
-- error: Cannot unflatten array of shape \[4\] to array of shape \[-2\]\[-2\]
-- input { [1i32, 2i32, 3i32, 4i32] 3i64 2i64 }
-- error: .

-- ==
-- entry: rows_of_flat
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] }
-- output { [1i32, 4i32] }

entry regroup [n][m] (xs: [n][m]i32) = unflatten (flatten xs)

entry piped [n][m] (xs: [n][m]i32) =
  let ys = flatten xs |> unflatten
  in map (\r -> reduce (+) 0 r) (transpose ys)

entry from_param [n][m] (xs: [n*m]i32) (_: [n]i32) (_: [m]i32) = unflatten xs

entry coerced [k] (xs: [k]i32) (a: i64) (b: i64) = unflatten (xs :> [a*b]i32)

entry rows_of_flat [n][m] (xs: [n][m]i32) =
  let flat = flatten xs
  in map (\r -> r[0]) (unflatten flat)
