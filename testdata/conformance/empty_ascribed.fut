-- An empty literal takes its inner sizes from its type (issue 17, bug 7).
-- ==
-- input { 4i64 } output { empty([0][3]i32) empty([0][4]f32) 0i64 }
entry main (d: i64) : ([0][3]i32, [0][d]f32, i64) = ([], [], length ([] : []f32))
