-- ScanPlus (redomap paper, benchmark 7): the inclusive prefix sum.

-- ==
-- input { [1i32, 2i32, 3i32, 4i32] } output { [1i32, 3i32, 6i32, 10i32] }
-- input { empty([0]i32) } output { empty([0]i32) }
-- input { [-5i32] } output { [-5i32] }
-- plan { scan 1 map 0 }
entry main (xs: []i32) : []i32 = scan (+) 0 xs
