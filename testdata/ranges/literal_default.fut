-- Unsuffixed ranges default to i32, like their literals.
-- ==
-- input { } output { [0i32, 1i32, 2i32] 6i32 }
entry main : ([]i32, i32) = (0..<3, i32.sum (1...3))
