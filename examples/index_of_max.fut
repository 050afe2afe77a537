-- IndexOfMax (redomap paper, benchmark 3): the index of the largest element.
-- The operator works on (value, index) pairs; ties go to the smaller index,
-- which keeps it associative and commutative. Empty input gives -1.

def max_with_index (xv: i32, xi: i64) (yv: i32, yi: i64) : (i32, i64) =
  if xv < yv then (yv, yi)
  else if yv < xv then (xv, xi)
  else if xi < yi then (xv, xi) else (yv, yi)

-- ==
-- input { [3i32, 9i32, -2i32, 9i32, 4i32] } output { 1i64 }
-- input { [-7i32] } output { 0i64 }
-- input { [1i32, 2i32, 3i32] } output { 2i64 }
-- input { empty([0]i32) } output { -1i64 }
-- plan { redomap 1 map 0 }
entry main [n] (xs: [n]i32) : i64 =
  let (_, i) = reduce_comm max_with_index (i32.lowest, i64.highest) (zip xs (iota n))
  in if n == 0 then -1 else i
