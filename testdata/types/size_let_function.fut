-- A let-bound function value whose sizes nothing fixes takes arrays of a
-- different size at each use, as Futhark generalises its sizes.
-- ==
-- input { [1i32, 2i32] [3i32, 4i32, 5i32] } output { [2i32, 3i32] [4i32, 5i32, 6i32] 3i32 12i32 }
def main [n] [m] (xs: [n]i32) (ys: [m]i32) =
  let inc = map (+ 1)
  let total = reduce (+) 0
  in (inc xs, inc ys, total xs, total ys)
