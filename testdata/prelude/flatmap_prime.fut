-- flatmap' is flatmap without the other results; segment sums follow
-- from its flags and offsets.
-- ==
-- input { [1i32, 3i32, 0i32, 2i32] }
-- output { [1i64, 3i64, 0i64, 2i64] [0i64, 1i64, 4i64, 4i64] [1i32, 3i32, 3i32, 3i32, 2i32, 2i32] [1i32, 9i32, 0i32, 4i32] }
entry main (xs: []i32) =
  let (sizes, _flags, offsets, data) = flatmap' (\x -> replicate (i64.i32 x) x) xs
  let sums = map2 (\o s -> reduce (+) 0 data[o:o + s]) offsets sizes
  in (sizes, offsets, data, sums)
