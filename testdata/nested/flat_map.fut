-- Element-wise map nests, which the GPU runs as one flat loop over the
-- elements (eval/gpu/segmap.go, flatBases): several arrays, an unused
-- parameter, a size read in the unfused form, and sizes large enough that
-- the unrolled steps and the remainder both run. The loop keeps fusion from
-- merging the maps with the arrays' generation.

-- ==
-- entry: small
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] [[10i32, 20i32, 30i32], [40i32, 50i32, 60i32]] }
-- output { [[13i32, 26i32, 39i32], [52i32, 65i32, 78i32]] [[2i32, 3i32, 4i32], [5i32, 6i32, 7i32]] }
-- input { empty([0][3]i32) empty([0][3]i32) } output { empty([0][3]i32) empty([0][3]i32) }
-- input { empty([2][0]i32) empty([2][0]i32) } output { empty([2][0]i32) empty([2][0]i32) }
entry small [n][m] (a: [n][m]i32) (b: [n][m]i32) : ([n][m]i32, [n][m]i32) =
  (map2 (map2 (\x y -> x * 3 + y)) a b, map2 (map2 (\x _ -> x + 1)) a b)

-- ==
-- entry: big
-- input { 1200i64 1100i64 3i64 } output { 327359649i32 11880000i32 }
-- input { 7i64 5i64 4i64 } output { 25869i32 595i32 }
entry big (n: i64) (m: i64) (k: i64) : (i32, i32) =
  let a = map (\i -> map (\j -> i32.i64 ((i * 13 + j * 7) % 17)) (iota m)) (iota n)
  let b = map (\i -> map (\j -> i32.i64 ((i + j) % 5)) (iota m)) (iota n)
  let (a, b) = loop (a, b) for _i < k do
    (map2 (map2 (\x y -> x * 3 + y)) a b, map (map (\y -> y * 2 - 1)) b)
  in (i32.sum (flatten a), i32.sum (flatten b))

-- A 3-D nest, f32.
-- ==
-- entry: cube
-- input { [[[1f32, 2f32], [3f32, 4f32]], [[5f32, 6f32], [7f32, 8f32]]] }
-- output { [[[3f32, 5f32], [7f32, 9f32]], [[11f32, 13f32], [15f32, 17f32]]] }
-- input { empty([2][0][2]f32) } output { empty([2][0][2]f32) }
entry cube [n][m][p] (a: [n][m][p]f32) : [n][m][p]f32 =
  loop a for _i < 1 do map (map (map (\x -> x * 2 + 1))) a

-- Only the second array is read: the kernel loads nothing of the first.
-- ==
-- entry: second
-- input { [[1i32, 2i32], [3i32, 4i32]] [[5i32, 6i32], [7i32, 8i32]] } output { [[10i32, 12i32], [14i32, 16i32]] }
-- input { empty([0][0]i32) empty([0][0]i32) } output { empty([0][0]i32) }
entry second [n][m] (a: [n][m]i32) (b: [n][m]i32) : [n][m]i32 = map2 (map2 (\_ y -> y * 2)) a b

-- Two results (each its own vector stores), and element types that move
-- one by one (f64, bool), at sizes with and without a remainder of four.
-- ==
-- entry: two
-- input { 1000i64 1001i64 2i64 } output { 3503500i32 5005000i32 1876875.0f64 250250i32 }
-- input { 3i64 3i64 1i64 } output { 23i32 28i32 16.0f64 7i32 }
entry two (n: i64) (m: i64) (k: i64) : (i32, i32, f64, i32) =
  let a = map (\i -> map (\j -> i32.i64 ((i + j) % 4)) (iota m)) (iota n)
  let (a, b, c, d) = loop (a, b, c, d) = (a, a, map (map f64.i32) a, map (map (== 0)) a) for _i < k do
    let (x, y) = unzip (map unzip (map (map (\x -> (x + 1, x * 2))) a))
    in (x, y, map (map (\v -> v * 0.5 + 1)) c, map (map (\v -> !v)) d)
  in (i32.sum (flatten a), i32.sum (flatten b), f64.sum (flatten c),
      i32.sum (map (\r -> i32.sum (map (\v -> if v then 1 else 0) r)) d))
