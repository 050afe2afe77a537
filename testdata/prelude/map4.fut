-- map4 applies a function of four arguments elementwise.
-- ==
-- input { [1i32, 2i32] [10i32, 20i32] [100i32, 200i32] [1000i32, 2000i32] } output { [1111i32, 2222i32] }
-- input { [1i32] [1i32, 2i32] [1i32] [1i32] } error:
entry main (a: []i32) (b: []i32) (c: []i32) (d: []i32) : []i32 = map4 (\w x y z -> w + x + y + z) a b c d
