-- flatten_3d, flatten_4d and their inverses unflatten_3d, unflatten_4d:
-- the inverses take their sizes from [n*m*l]t, or from an ascription.
-- ==
-- entry: round3
-- input { [[[1i32, 2i32], [3i32, 4i32]], [[5i32, 6i32], [7i32, 8i32]], [[9i32, 10i32], [11i32, 12i32]]] }
-- output { [[[1i32, 2i32], [3i32, 4i32]], [[5i32, 6i32], [7i32, 8i32]], [[9i32, 10i32], [11i32, 12i32]]] }

-- ==
-- entry: round4
-- input { [[[[1i32], [2i32]]], [[[3i32], [4i32]]]] }
-- output { [1i32, 2i32, 3i32, 4i32] [[[[1i32], [2i32]]], [[[3i32], [4i32]]]] }

-- ==
-- entry: ascribed3
-- input { [1i32, 2i32, 3i32, 4i32, 5i32, 6i32, 7i32, 8i32] }
-- output { [[[1i32, 2i32]], [[3i32, 4i32]], [[5i32, 6i32]], [[7i32, 8i32]]] }
-- input { [1i32, 2i32, 3i32] }
-- error: Cannot unflatten array of shape \[3\]

entry round3 [n][m][l] (xs: [n][m][l]i32) = unflatten_3d (flatten_3d xs)

entry round4 [n][m][l][k] (xs: [n][m][l][k]i32) =
  let f = flatten_4d xs
  in (f, unflatten_4d f)

entry ascribed3 (xs: []i32) = unflatten_3d xs : [4][1][2]i32
