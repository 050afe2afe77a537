-- A declared return size is checked at run time, with Futhark's message
-- and the position of the function's definition; :type of `twice [1]`
-- says [1]i32, so the call must not return two elements.
def twice [n] (x: [n]i32) : [n]i32 = x ++ x

-- ==
-- input { [1i32] } error: return_size.fut:4:1: Function return value does not match shape of declared return type
-- input { empty([0]i32) } output { empty([0]i32) }
entry main (x: []i32) = twice x
