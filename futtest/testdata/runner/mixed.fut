-- Cases that fail in each way the runner reports, and items it skips.
-- ==
-- entry: double
-- input { 2i32 } output { 4i32 }
-- input { 2i32 } output { 5i32 }
-- input { 2i32 } error: division by zero
-- input { 2i32 } output { 4i32 4i32 }
-- input { 2i64 } output { 4i32 }
-- random input { [10]i32 } auto output
-- structure { Screma 1 }
-- plan { redomap 1 }
entry double (x: i32) : i32 = x * 2

-- ==
-- entry: divide
-- input { 1i32 0i32 } output { 0i32 }
-- input { 1i32 0i32 } error: out of bounds
-- plan { redomap 2 }
entry divide (x: i32) (y: i32) : i32 = x / y

-- ==
-- entry: missing
-- input { 1i32 } output { 1i32 }
