-- reduce over rows with a vector operator: column sums.
-- ==
-- input { [[1i32, 2i32], [3i32, 4i32], [5i32, 6i32]] } output { [9i32, 12i32] }
entry main [m] (xss: [][m]i32) : [m]i32 = reduce (map2 (+)) (replicate m 0) xss
