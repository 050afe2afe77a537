-- A polymorphic higher-order function.
-- ==
-- input { [1i32, 2i32] } output { [3i32, 4i32] [false, true] }
def twice 'a (f: a -> a) (x: a) : a = f (f x)
entry main (xs: []i32) : ([]i32, []bool) = (map (twice (\x -> x + 1)) xs, map (twice (\b -> !b)) (map (> 1) xs))
