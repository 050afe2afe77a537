-- Point-free entry points: the parameters come from the partial application.
def add (x: i32) (y: i32) : i32 = x + y

-- ==
-- entry: vadd
-- input { [1i32, 2i32] [10i32, 20i32] } output { [11i32, 22i32] }
entry vadd = map2 add

-- ==
-- entry: plus
-- input { [1i32, 2i32] [3i32, 4i32] } output { [4i32, 6i32] }
entry plus = map2 (+)

-- ==
-- entry: total
-- input { [1i64, 2i64, 3i64] } output { 6i64 }
-- input { empty([0]i64) } output { 0i64 }
entry total = reduce (+) 0i64
