-- A recursive polymorphic function, instantiated at two types.
-- ==
-- input { 3i64 } output { [7i32, 7i32, 7i32] [true, true, true] }
def fill 't (n: i64) (x: t) : []t = if n == 0 then [] else fill (n - 1) x ++ [x]
entry main (n: i64) : ([]i32, []bool) = (fill n 7, fill n true)
