-- Arrays of booleans.
-- ==
-- input { [true, false, true] } output { [false, true, false] 2i64 }
entry main (bs: []bool) : ([]bool, i64) =
  (map (\b -> !b) bs, length (filter (\b -> b) bs))
