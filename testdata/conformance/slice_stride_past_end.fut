-- A strided slice may end past the array when the stride skips over the
-- end (Futhark's rule: the first and last elements taken must be in
-- bounds; issue 17, bug 6).
-- ==
-- input { [0i32, 1i32, 2i32, 3i32, 4i32] } output { [0i32, 4i32] [3i32] [4i32, 1i32] }
entry main (xs: []i32) : ([]i32, []i32, []i32) = (xs[0:6:4], xs[3:5:2], xs[4:-1:-3])
