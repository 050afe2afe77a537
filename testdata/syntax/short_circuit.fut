-- && and || short-circuit: the right operand is not evaluated (no index error).
-- ==
-- input { [1i32, 2i32] 5i64 } output { false true }
-- input { [1i32, 2i32] 1i64 } output { true true }
entry main (xs: []i32) (i: i64) : (bool, bool) =
  (i < length xs && xs[i] == 2, i >= length xs || xs[i] == 2)
