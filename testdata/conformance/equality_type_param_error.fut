-- A type parameter does not support equality in Futhark: it may stand for
-- a function.
-- ==
-- error: does not support equality

def count_eq 'e (x: e) (xs: []e) = length (filter (\y -> y == x) xs)

entry main (xs: []i32) = count_eq 2 xs
