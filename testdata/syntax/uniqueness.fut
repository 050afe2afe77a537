-- A unique parameter type *[]t is accepted (and may be updated in place).
-- ==
-- input { [1i32, 2i32, 3i32] } output { [1i32, 42i32, 3i32] }
entry main (xs: *[]i32) : *[]i32 =
  let xs[1] = 42
  in xs
