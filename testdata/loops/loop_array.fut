-- A loop whose state is an array.
-- ==
-- input { [1i32, 2i32, 3i32] 3i32 } output { [8i32, 16i32, 24i32] }
-- input { [1i32, 2i32, 3i32] 0i32 } output { [1i32, 2i32, 3i32] }
entry main (xs: []i32) (k: i32) : []i32 = loop ys = xs for _i < k do map (*2) ys
