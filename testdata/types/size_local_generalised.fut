-- A local function whose parameter sizes inference leaves open takes
-- arrays of a different size at each use, as Futhark generalises them.
-- ==
-- input { [1i32, 2i32] [3i32, 4i32, 5i32] } output { [2i32, 3i32] [4i32, 5i32, 6i32] [1i32, 2i32, 1i32, 2i32] }
def main [n] [m] (xs: [n]i32) (ys: [m]i32) =
  let inc zs = map (+ 1) zs
  let twice zs = zs ++ zs
  in (inc xs, inc ys, twice (inc (map (\x -> x - 1) xs)))
