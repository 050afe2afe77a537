-- A parameter named like its function shadows it (issue 17, bug 5).
-- ==
-- input { 5i32 } output { 7i32 }
def g (g: i32) = g + 2
entry main (x: i32) : i32 = g x
