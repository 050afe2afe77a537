-- Prefix minus binds tighter than %: -x % y is (-x) % y.
-- ==
-- input { 7i32 3i32 } output { 2i32 -1i32 }
-- input { 6i32 4i32 } output { 2i32 -2i32 }
entry main (x: i32) (y: i32) : (i32, i32) = (-x % y, -(x % y))
