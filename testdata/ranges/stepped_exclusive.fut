-- a..b..<c and a..b..>c: stepped ranges with an exclusive end.
-- ==
-- entry: up
-- input { 0i64 2i64 6i64 } output { [0i64, 2i64, 4i64] }
-- input { 0i64 2i64 7i64 } output { [0i64, 2i64, 4i64, 6i64] }
-- input { 0i64 1i64 -1i64 } error: Range 0..1..<-1 is invalid
entry up (a: i64) (b: i64) (c: i64) : []i64 = a..b..<c

-- ==
-- entry: down
-- input { 9i64 6i64 0i64 } output { [9i64, 6i64, 3i64] }
-- input { 0i64 2i64 -4i64 } error: is invalid
entry down (a: i64) (b: i64) (c: i64) : []i64 = a..b..>c
