-- partition2 splits three ways, keeping the order within each part.
-- ==
-- input { [1i32, 7i32, 3i32, 2i32, 9i32, 4i32] } output { [1i32, 2i32] [7i32, 9i32] [3i32, 4i32] }
entry main (xs: []i32) : ([]i32, []i32, []i32) = partition2 (< 3) (> 5) xs
