-- (.field) is a projection section.
-- ==
-- input { [1i64, 2i64] } output { [2i64, 4i64] [1i64, 2i64] }
entry main (xs: []i64) : ([]i64, []i64) = let rs = map (\x -> {d = x * 2, s = x}) xs in (map (.d) rs, map (.s) rs)
