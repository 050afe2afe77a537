-- `let [n] p = e` binds the sizes of e's type by name (Futhark's
-- size-binding let), here the length of a filter's result.
-- ==
-- input { [1,-2,3] } output { 2i64 [1,3] }
-- input { [-1,-2] } output { 0i64 empty([0]i32) }
entry main (xs: []i32) = let [n] (ys: [n]i32) = filter (>0) xs in (n, ys)
