-- scan over rows: the operator works on whole arrays (vectorised addition).
-- ==
-- input { [[1i32, 2i32], [3i32, 4i32], [5i32, 6i32]] } output { [[1i32, 2i32], [4i32, 6i32], [9i32, 12i32]] }
entry main [m] (xss: [][m]i32) : [][m]i32 = scan (map2 (+)) (replicate m 0) xss
