-- partition over an array of tuples, by the second component.
-- ==
-- input { [1i32, 2i32, 3i32] [0.5f32, -1.0f32, 2.0f32] } output { [1i32, 3i32] [2i32] }
entry main (xs: []i32) (ys: []f32) : ([]i32, []i32) =
  let (pos, neg) = partition (\(_, y) -> y > 0) (zip xs ys)
  in ((unzip pos).0, (unzip neg).0)
