-- An expected run-time error's regex is also searched in the text a
-- program compiled by Futhark prints (Error: message, then a backtrace),
-- which is what futhark test matches.
-- ==
-- input { [1, 2, 3] 1 } output { 2 }
-- input { [1, 2, 3] 5 } error: ^Error: Index \[5\] out of bounds
-- input { [1, 2, 3] -1 } error: Error
entry main (xs: []i32) (i: i32) = xs[i]
