-- Equality on types that are known (or fixed by a use inside the function)
-- is fine.
-- ==
-- input { [1i32, 2i32, 2i32] 2i32 } output { 2i64 true }

def count_eq (x: i32) xs = length (filter (== x) xs)

entry main (xs: []i32) (y: i32) = (count_eq y xs, (y, xs[0]) != (xs[0], y))
