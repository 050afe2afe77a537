-- a..b...c steps by b-a, up or down.
-- ==
-- input { 0i32 2i32 9i32 } output { [0i32, 2i32, 4i32, 6i32, 8i32] }
-- input { 0i32 3i32 9i32 } output { [0i32, 3i32, 6i32, 9i32] }
-- input { 10i32 7i32 0i32 } output { [10i32, 7i32, 4i32, 1i32] }
-- input { 1i32 1i32 5i32 } error: Range 1..1...5 is invalid
-- input { 0i32 1i32 -1i32 } error: is invalid
entry main (a: i32) (b: i32) (c: i32) : []i32 = a..b...c
