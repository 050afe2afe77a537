-- A local function may project from a parameter whose tuple type comes
-- from its use (issue 17, bug 10).
-- ==
-- input { 3i32 true } output { 3i32 true }
entry main (x: i32) (y: bool) : (i32, bool) =
  let first p = p.0
  let second p = p.1
  in (first (x, y), second (x, y))
