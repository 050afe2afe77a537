-- Several entry points in one file, each with its own test block; one
-- block may name several entry points.
def sq (x: i32) : i32 = x * x

-- ==
-- entry: square
-- input { 4i32 } output { 16i32 }
entry square (x: i32) : i32 = sq x

-- ==
-- entry: twice_a twice_b
-- input { 5i32 } output { 10i32 }
-- input { -3i32 } output { -6i32 }
entry twice_a (x: i32) : i32 = x + x

entry twice_b (x: i32) : i32 = 2 * x
