-- Every case here passes.
-- ==
-- input { [1i32, 2i32] } output { 3i32 }
-- input { empty([0]i32) } output { 0i32 }
entry main (xs: []i32) : i32 = reduce (+) 0 xs

-- ==
-- entry: get
-- input { [1i32] 3i64 } error: out of bounds
-- input { [1i32] 0i64 }
entry get (xs: []i32) (i: i64) : i32 = xs[i]
