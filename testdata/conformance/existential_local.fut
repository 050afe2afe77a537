-- An existential size in a local function's return type.
-- ==
-- input { [1, -1, 2, -2, 3] } output { [1, 2, 3] [-1, -2] }
entry main (xs: []i32) =
  let keep (p: i32 -> bool) : ?[m].[m]i32 = filter p xs
  in (keep (> 0), keep (< 0))
