-- Character literals in match patterns.
-- ==
-- input { [40u8, 41u8, 120u8, 40u8] } output { 1 }
entry main (s: []u8) : i32 =
  loop depth = 0 for c in s do
    match c
    case '(' -> depth + 1
    case ')' -> depth - 1
    case _ -> depth
