-- Indices may be of any integer type (issue 17, bug 1).
-- ==
-- input { [10i32, 20i32, 30i32] 2i32 } output { 30i32 [20i32, 30i32] }
-- input { [10i32, 20i32, 30i32] 3i32 } error: Index \[3\] out of bounds for array of shape \[3\]
entry main (a: []i32) (i: i32) : (i32, []i32) = (a[i], a[i - 1:])
