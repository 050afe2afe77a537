-- multiscan with one label is an inclusive scan.
-- ==
-- input { [3i32, 1i32, 4i32] } output { [3i32, 4i32, 8i32] }
-- input { empty([0]i32) } output { empty([0]i32) }
entry main (vs: []i32) : []i32 = multiscan (+) 0 1 (map (\_ -> 0) vs) vs
