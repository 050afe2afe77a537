-- Chains of if/else if; an if inside an operand extends to the right.
def grade (s: i32) : i32 =
  if s >= 90 then 4 else if s >= 80 then 3 else if s >= 70 then 2 else if s >= 60 then 1 else 0

-- ==
-- input { [95, 85, 75, 65, 10] } output { [4, 3, 2, 1, 0] 6 }
entry main (ss: []i32) = (map grade ss, 1 + if true then 5 else 7 + 5)
