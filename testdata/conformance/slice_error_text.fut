-- An out-of-bounds slice is shown as it was written, with the values its
-- parts had: a stride that was left out is not shown, nor is a start or
-- an end that was left out before another part.
-- ==
-- entry: both
-- input { [1i32, 2i32, 3i32] 1i64 3i64 } output { [2i32, 3i32] }
-- input { [1i32, 2i32, 3i32] 2i64 5i64 } error: Index \[2:5\] out of bounds for array of shape \[3\]\.
-- input { [1i32, 2i32, 3i32] 2i64 1i64 } error: Index \[2:1\] out of bounds

-- ==
-- entry: from
-- input { [1i32, 2i32, 3i32] 3i64 } output { empty([0]i32) }
-- input { [1i32, 2i32, 3i32] 4i64 } error: Index \[4:\] out of bounds

-- ==
-- entry: upto
-- input { [1i32, 2i32, 3i32] 4i64 } error: Index \[:4\] out of bounds

-- ==
-- entry: strided
-- input { [1i32, 2i32, 3i32] 0i64 2i64 } output { [1i32, 3i32] }
-- input { [1i32, 2i32, 3i32] 1i64 0i64 } error: Index \[1::0\] out of bounds
-- input { [1i32, 2i32, 3i32] -1i64 1i64 } error: Index \[-1::1\] out of bounds

-- ==
-- entry: full
-- input { [1i32, 2i32, 3i32] 0i64 4i64 } error: Index \[0:4:1\] out of bounds

-- A fixed index beside a slice.
-- ==
-- entry: rows
-- input { [[1i32, 2i32], [3i32, 4i32]] 1i64 2i64 } output { [4i32] }
-- input { [[1i32, 2i32], [3i32, 4i32]] 0i64 3i64 } error: Index \[0, 1:3\] out of bounds for array of shape \[2\]\[2\]\.

entry both (xs: []i32) (i: i64) (j: i64) : []i32 = xs[i:j]
entry from (xs: []i32) (i: i64) : []i32 = xs[i:]
entry upto (xs: []i32) (j: i64) : []i32 = xs[:j]
entry strided (xs: []i32) (i: i64) (s: i64) : []i32 = xs[i::s]
entry full (xs: []i32) (i: i64) (j: i64) : []i32 = xs[i:j:1]
entry rows (xss: [][]i32) (i: i64) (j: i64) : []i32 = xss[i, 1:j]
