-- filter followed by reduce and by length.
-- ==
-- input { [3i32, -1i32, 4i32, -1i32, 5i32] } output { 12i32 3i64 }
entry main (xs: []i32) : (i32, i64) =
  let ps = filter (> 0) xs
  in (reduce (+) 0 ps, length ps)
