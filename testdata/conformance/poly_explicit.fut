-- Explicit type parameters, with sizes.
-- ==
-- input { [1i32, 2i32, 3i32] } output { [3i32, 2i32, 1i32] [true, true, true] }
def rev [n] 't (xs: [n]t) : [n]t = map (\i -> xs[n - 1 - i]) (iota n)
entry main (xs: []i32) : ([]i32, []bool) = (rev xs, rev (map (> 0) xs))
