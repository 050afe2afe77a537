-- multiscan with a tuple operator: per label, the running count and sum.
-- ==
-- input { 2i64 [0i64, 1i64, 0i64, 0i64, 1i64] [5i32, 6i32, 7i32, 8i32, 9i32] } output { [1i32, 1i32, 2i32, 3i32, 2i32] [5i32, 6i32, 12i32, 20i32, 15i32] }
entry main (k: i64) (ls: []i64) (vs: []i32) : ([]i32, []i32) =
  unzip (multiscan (\(c1, s1) (c2, s2) -> (c1 + c2, s1 + s2)) (0, 0) k ls (map (\v -> (1, v)) vs))
