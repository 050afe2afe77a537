-- spread writes values into an array of a default; bad indices are ignored.
-- ==
-- input { 5i64 [1i64, 3i64, 7i64] [10i32, 30i32, 70i32] } output { [0i32, 10i32, 0i32, 30i32, 0i32] }
entry main (k: i64) (is: []i64) (vs: []i32) : []i32 = spread k 0 is vs
