-- Right sections (*2) and (>3).
-- ==
-- input { [1i32, 2i32, 5i32] } output { [2i32, 4i32, 10i32] [false, false, true] }
entry main (xs: []i32) : ([]i32, []bool) = (map (*2) xs, map (>3) xs)
