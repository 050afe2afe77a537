-- Ranges through negative numbers.
-- ==
-- input { } output { [-2i32, -1i32, 0i32, 1i32] [2i32, 0i32, -2i32] }
entry main : ([]i32, []i32) = (-2..<2, 2..0...-2)
