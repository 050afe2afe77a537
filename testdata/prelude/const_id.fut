-- const ignores its second argument; id returns its argument.
-- ==
-- input { [1i32, 2i32, 3i32] } output { [7i32, 7i32, 7i32] [1i32, 2i32, 3i32] true }
entry main (xs: []i32) : ([]i32, []i32, bool) = (map (const 7) xs, map id xs, id true)
