-- A local function may refer to variables in scope.
-- ==
-- input { 10i32 [1i32, 2i32, 3i32] } output { [11i32, 12i32, 13i32] }
-- input { 0i32 empty([0]i32) } output { empty([0]i32) }
entry main (k: i32) (xs: []i32) : []i32 =
  let addk (x: i32) = x + k
  in map addk xs
