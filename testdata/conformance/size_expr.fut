-- Size expressions in types.
-- ==
-- input { [1i32, 2i32, 3i32, 4i32] } output { [1i32, 2i32, 3i32, 4i32, 0i32] }
def pad [n] (xs: [n]i32) : [n + 1]i32 = xs ++ [0] :> [n + 1]i32
entry main (xs: []i32) : []i32 = pad xs
