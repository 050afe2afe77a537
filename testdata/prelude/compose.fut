-- Function composition: f >-> g is g after f, f <-< g is f after g.
-- ==
-- input { [1i32, 2i32] } output { [4i32, 6i32] [3i32, 5i32] 9i32 }
entry main (xs: []i32) : ([]i32, []i32, i32) =
  (map ((+ 1) >-> (* 2)) xs, map ((+ 1) <-< (* 2)) xs, ((>->) (+ 1) (* 3)) 2)
