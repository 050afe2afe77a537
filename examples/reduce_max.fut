-- ReduceMax (redomap paper, benchmark 2): the largest element, with a
-- user-defined max and the commutative reduce_comm.

def max (x: i32) (y: i32) : i32 = if x < y then y else x

-- ==
-- input { [3i32, 9i32, -2i32, 9i32, 4i32] } output { 9i32 }
-- input { [-5i32, -3i32] } output { -3i32 }
-- input { empty([0]i32) } output { -2147483648i32 }
entry main (xs: []i32) : i32 = reduce_comm max i32.lowest xs
