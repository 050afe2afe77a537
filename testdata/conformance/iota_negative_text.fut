-- iota and replicate of a negative count fail as Futhark's do: both are
-- the range 0..1..<n in Futhark's prelude, so the message is the range's.
-- ==
-- entry: iota_of
-- input { 2i64 } output { [0i64, 1i64] }
-- input { 0i64 } output { empty([0]i64) }
-- input { -2i64 } error: Range 0\.\.1\.\.<-2 is invalid\.

-- ==
-- entry: replicate_of
-- input { 2i64 } output { [5i32, 5i32] }
-- input { -7i64 } error: Range 0\.\.1\.\.<-7 is invalid\.

-- A count computed inside a map fails at the first bad element.
-- ==
-- entry: in_map
-- input { [1i64, 2i64] } output { [1i64, 3i64] }
-- input { [1i64, -3i64] } error: Range 0\.\.1\.\.<-2 is invalid\.

-- tabulate and indices go through iota too; a size is never negative.
-- ==
-- entry: tab
-- input { 3i64 } output { [0i64, 2i64, 4i64] }
-- input { -1i64 } error: Range 0\.\.1\.\.<-1 is invalid\.

entry iota_of (n: i64) : []i64 = iota n
entry replicate_of (n: i64) : []i32 = replicate n 5
entry in_map (ns: []i64) : []i64 = map (\n -> i64.sum (iota (n + 1))) ns
entry tab (n: i64) : []i64 = tabulate n (* 2)
