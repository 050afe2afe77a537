-- A function's result may not alias a top-level constant.
-- ==
-- error: Function result aliases the free variable "table"

def table : []i32 = [1, 2, 3]

entry main (x: i32) : []i32 = if x > 0 then table else [x]
