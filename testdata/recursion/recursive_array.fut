-- Recursion over arrays: the sum of a slice, split in halves.
def total (xs: []i32) : i32 =
  let n = length xs
  in if n == 0 then 0
     else if n == 1 then xs[0]
     else total xs[:n / 2] + total xs[n / 2:]

-- ==
-- input { [1i32, 2i32, 3i32, 4i32, 5i32] } output { 15i32 }
-- input { empty([0]i32) } output { 0i32 }
entry main (xs: []i32) : i32 = total xs
