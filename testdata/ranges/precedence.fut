-- A range binds more loosely than arithmetic: 1...n-1 is 1...(n-1).
-- ==
-- input { 4i32 } output { [1i32, 2i32, 3i32] [2i32, 3i32, 4i32, 5i32] }
entry main (n: i32) : ([]i32, []i32) = (1...n-1, n-2..<n+2)
