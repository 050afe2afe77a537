-- assert c e is e when c holds.
-- ==
-- input { 4i32 } output { 2i32 }
-- input { 0i32 } error: Assertion is false: x > 0
entry main (x: i32) : i32 = assert (x > 0) (x / 2)
