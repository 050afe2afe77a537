-- Integer division by zero is a run-time error, for every division operator.
-- ==
-- entry: div
-- input { 1i32 0i32 } error: division by zero
-- input { 6i32 3i32 } output { 2i32 }
entry div (x: i32) (y: i32) : i32 = x / y

-- ==
-- entry: mod
-- input { 1i32 0i32 } error: division by zero
entry mod (x: i32) (y: i32) : i32 = x % y

-- ==
-- entry: quot
-- input { -1i64 0i64 } error: division by zero
entry quot (x: i64) (y: i64) : i64 = x // y

-- ==
-- entry: rem
-- input { 5u16 0u16 } error: division by zero
entry rem (x: u16) (y: u16) : u16 = x %% y
