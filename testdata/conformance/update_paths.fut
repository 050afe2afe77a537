-- Update paths that mix record fields and indices, in `with` and in
-- `let`: `r with xs[i] = v` means `r with xs = (r.xs with [i] = v)`, and
-- `a[i][j]` with single elements is `a[i, j]`.
-- ==
-- entry: let_field_index
-- input { 5i32 } output { [5i32, 2i32, 3i32] }
entry let_field_index (x: i32) : []i32 =
  let r = {xs = [1, 2, 3], y = x}
  let r.xs[0] = x
  in r.xs

-- ==
-- entry: with_field_index
-- input { 5i32 } output { [1i32, 5i32, 3i32] 5i32 }
entry with_field_index (x: i32) : ([]i32, i32) =
  let r = {xs = [1, 2, 3], y = x}
  let r2 = r with xs[1] = x
  in (r2.xs, r2.y)

-- ==
-- entry: with_index_field
-- input { 5i32 } output { [5i32, 2i32] }
entry with_index_field (x: i32) : []i32 =
  let rs = [{a = 1}, {a = 2}]
  in map (.a) (rs with [0].a = x)

-- ==
-- entry: let_index_field
-- input { 5i32 } output { [1i32, 5i32] }
entry let_index_field (x: i32) : []i32 =
  let rs = [{a = 1}, {a = 2}]
  let rs[1].a = x
  in map (.a) rs

-- ==
-- entry: two_indices
-- input { 5i32 } output { [[1i32, 2i32], [5i32, 4i32]] [[1i32, 5i32], [3i32, 4i32]] }
entry two_indices (x: i32) : ([][]i32, [][]i32) =
  let m = [[1, 2], [3, 4]]
  let n = copy m with [0][1] = x
  let m[1][0] = x
  in (m, n)

-- ==
-- entry: nested_fields
-- input { 5i32 } output { 7i32 }
entry nested_fields (x: i32) : i32 =
  let r = {p = {q = 1, z = 2}}
  let r.p.q = x
  in r.p.q + r.p.z

-- ==
-- entry: field_slice
-- input { 5i32 } output { [1i32, 5i32, 5i32] }
entry field_slice (x: i32) : []i32 =
  let r = {xs = [1, 2, 3]}
  in (r with xs[1:] = [x, x]).xs

-- A trailing comma is allowed in an index.
-- ==
-- entry: trailing
-- input { [[1i32, 2i32], [3i32, 4i32]] } output { 2i32 [3i32, 4i32] }
entry trailing (xss: [][]i32) : (i32, []i32) = (xss[0, 1,], xss[1,])
