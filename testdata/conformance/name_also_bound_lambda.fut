-- Nor a lambda's.
-- ==
-- error: Name "a" also bound at

entry main (xs: []i32) : []i32 = map2 (\a a -> a) xs xs
