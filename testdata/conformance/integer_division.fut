-- / and % round toward minus infinity, // and %% truncate, for every
-- sign combination.
-- ==
-- input { [7, -7, 7, -7] [2, 2, -2, -2] }
-- output { [3, -4, -4, 3] [1, 1, -1, -1] [3, -3, -3, 3] [1, -1, 1, -1] }
entry main (a: []i32) (b: []i32) =
  (map2 (/) a b, map2 (%) a b, map2 (//) a b, map2 (%%) a b)
