-- A coercion to the size parameter of the enclosing function, checked
-- where the function is called with arrays of different lengths.
def pairwise [n] (xs: [n]i32) (ys: []i32) : [n]i32 = map2 (+) xs (ys :> [n]i32)

-- ==
-- input { [1, 2] [10, 20] } output { [11, 22] }
-- input { [1, 2] [10, 20, 30] } error: cannot match shape of type "\[2\]i32"
entry main (xs: []i32) (ys: []i32) = pairwise xs ys
