-- reduce_by_index with no updates returns dest unchanged.
-- ==
-- input { [4i32, 5i32] empty([0]i64) empty([0]i32) } output { [4i32, 5i32] }
entry main (dest: *[]i32) (is: []i64) (vs: []i32) : []i32 = reduce_by_index dest (+) 0 is vs
