-- SOACs inside a loop: repeated prefix sums.
-- ==
-- input { [1i32, 1i32, 1i32, 1i32] 2i32 } output { [1i32, 3i32, 6i32, 10i32] }
entry main (xs: []i32) (k: i32) : []i32 = loop ys = xs for _i < k do scan (+) 0 ys
