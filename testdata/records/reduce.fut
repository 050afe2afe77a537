-- Records as the values of a reduction: the minimum and maximum at once.
-- ==
-- input { [3i32, 1i32, 4i32, 1i32, 5i32] } output { 1i32 5i32 }
entry main (xs: []i32) : (i32, i32) =
  let r = reduce (\a b -> {lo = i32.min a.lo b.lo, hi = i32.max a.hi b.hi})
                 {lo = i32.highest, hi = i32.lowest}
                 (map (\x -> {lo = x, hi = x}) xs)
  in (r.lo, r.hi)
