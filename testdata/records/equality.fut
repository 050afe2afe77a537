-- Records compare field by field.
-- ==
-- input { 1i32 } output { true false }
entry main (a: i32) : (bool, bool) = ({x = a, y = true} == {y = true, x = 1}, {x = a, y = true} == {x = a, y = false})
