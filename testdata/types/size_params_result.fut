-- Sizes shared between parameters and the result type.
def add_vec [n] (xs: [n]i32) (ys: [n]i32) : [n]i32 = map2 (+) xs ys

-- ==
-- input { [1i32, 2i32] } output { [2i32, 4i32] }
entry main [n] (xs: [n]i32) : [n]i32 = add_vec xs xs
