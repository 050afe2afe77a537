-- Futhark evaluates an application's arguments from right to left: an
-- argument passed for a consuming parameter may be read (not aliased) by
-- the arguments to its right, and an update reads its index and value
-- before it consumes the array.
-- ==
-- entry: shifted
-- input { [1i32, 2i32, 3i32] } output { [2i32, 3i32, 3i32] }

-- ==
-- entry: swap01
-- input { [5i32, 6i32, 7i32] } output { [6i32, 5i32, 7i32] }

entry shifted [n] (xs: *[n]i32) =
  scatter xs (iota (n - 1)) (map (\i -> xs[i + 1]) (iota (n - 1)))

entry swap01 (xs: *[]i32) = (xs with [0] = xs[1]) with [1] = xs[0]
