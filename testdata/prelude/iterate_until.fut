-- iterate_until and iterate_while stop on opposite conditions.
-- ==
-- input { 100i32 } output { 128i32 243i32 }
entry main (n: i32) : (i32, i32) = (iterate_until (> n) (* 2) 1, iterate_while (< n) (* 3) 1)
