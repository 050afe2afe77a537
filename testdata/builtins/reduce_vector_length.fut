-- The length of a vector reduction's result is the vectors' length, not
-- the number of rows reduced (fusion once took it for the reduction's
-- width).
-- ==
-- input { [[1i32, 2i32], [3i32, 4i32], [5i32, 6i32]] } output { 2i64 [9i32, 12i32] }
-- input { [[1i32, 2i32, 3i32]] } output { 3i64 [1i32, 2i32, 3i32] }
entry main [m] (xss: [][m]i32) : (i64, []i32) =
  let sums = reduce (map2 (+)) (replicate m 0) xss
  in (length sums, sums)
