-- A typed hole (???) takes the type its context needs; evaluating it is
-- a run-time error naming that type.
-- ==
-- entry: scalar
-- input { 3i64 } output { 3i64 }
-- input { 0i64 } error: Reached hole of type: i64
entry scalar (x: i64) : i64 = if x > 0 then x else ???

-- ==
-- entry: tuple
-- input { 1i64 } output { 1i32 [[1f32]] }
-- input { 0i64 } error: hole
entry tuple (x: i64) : (i32, [][]f32) = if x > 0 then (1, [[1f32]]) else ???

-- In a map, only an element that reaches the hole fails.
-- ==
-- entry: in_map
-- input { [1i64, 2i64] } output { [1i64, 2i64] }
-- input { [1i64, 0i64] } error: Reached hole
entry in_map (xs: []i64) : []i64 = map (\x -> if x > 0 then x else ???) xs

-- As an argument.
-- ==
-- entry: argument
-- input { 2i32 } output { 3i32 }
-- input { 0i32 } error: hole
def inc (x: i32) : i32 = x + 1
entry argument (x: i32) : i32 = if x > 0 then inc x else inc ???
