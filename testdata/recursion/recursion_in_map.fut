-- A recursive function called from inside a map.
def tri (n: i32) : i32 = if n <= 0 then 0 else n + tri (n - 1)

-- ==
-- input { [0i32, 1i32, 4i32, 10i32] } output { [0i32, 1i32, 10i32, 55i32] }
entry main (xs: []i32) : []i32 = map tri xs
