-- A while loop over a tuple: the number of Collatz steps to reach 1.
-- ==
-- input { 1i64 } output { 0i32 }
-- input { 6i64 } output { 8i32 }
-- input { 27i64 } output { 111i32 }
entry main (n: i64) : i32 =
  let (_, c) = loop (x, c) = (n, 0) while x != 1 do
                 (if x % 2 == 0 then x / 2 else 3 * x + 1, c + 1)
  in c
