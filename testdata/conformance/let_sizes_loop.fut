-- A size-binding let inside a loop body: each round filters and binds the
-- new length.
-- ==
-- input { [5, 3, 8, 1, 9, 2] } output { 3i64 [8, 9] }
entry main (xs: []i32) =
  let (n, ys) =
    loop (_n, ys) = (length xs, xs) for t in [2, 4] do
      let [k] (zs: [k]i32) = filter (> t) ys
      in (k, zs)
  in (n, filter (> 7) ys)
