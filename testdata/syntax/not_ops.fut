-- ! is logical negation on bool and bitwise complement on integers.
-- ==
-- input { true 0i32 } output { false -1i32 }
-- input { false 5i32 } output { true -6i32 }
entry main (b: bool) (x: i32) : (bool, i32) = (!b, !x)
