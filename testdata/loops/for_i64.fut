-- A for loop over i64 with an i64 accumulator.
-- ==
-- input { 4i64 } output { 14i64 }
-- input { 100000i64 } output { 333328333350000i64 }
entry main (n: i64) : i64 = loop s = 0i64 for i < n do s + i * i
