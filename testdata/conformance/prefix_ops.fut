-- Prefix - and ! bind tighter than any infix operator and looser than
-- application; ! is bitwise complement on integers.
-- ==
-- input { 5 } output { -25 2 -6 250u8 true -6 }
entry main (x: i32) =
  (-x * x, -x % 3 + -(-1) - 1 + 1, !x, !5u8, !(x < 3), -(x + 1))
