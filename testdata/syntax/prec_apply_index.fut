-- `f a[i]` applies f to a[i]: indexing binds tighter than application.
def f (x: i32) : i32 = x * 10

-- ==
-- input { [1i32, 2i32, 3i32] } output { 20i32 }
entry main (a: []i32) : i32 = f a[1]
