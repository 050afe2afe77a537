-- Sizes arepl cannot know statically are checked at run time: a `:>`
-- coercion (Futhark's escape hatch) and the result of filter, whose size
-- is unknown until it runs.
def add [n] (xs: [n]i32) (ys: [n]i32) : [n]i32 = map2 (+) xs ys

-- ==
-- entry: coerce
-- input { [1i32, 2i32] [3i32, 4i32] } output { [4i32, 6i32] }
-- input { [1i32, 2i32] [3i32] } error: shape
entry coerce [n] [m] (xs: [n]i32) (ys: [m]i32) : [n]i32 = add xs (ys :> [n]i32)

-- ==
-- entry: filtered
-- input { [1i32, -2i32, 3i32] [10i32, 20i32] } output { [11i32, 23i32] }
-- input { [1i32, 2i32, 3i32] [10i32, 20i32] } error: size
entry filtered [m] (xs: []i32) (ys: [m]i32) : []i32 = add (filter (> 0) xs) ys
