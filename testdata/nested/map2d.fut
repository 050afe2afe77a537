-- Segmented maps over two dimensions: one kernel over the [n][m] index
-- space (eval/gpu/nest.go). Empty dimensions in either position.
-- ==
-- entry: main
-- input { [[1f32, 2f32, 3f32], [4f32, 5f32, 6f32]] } output { [[3.0f32, 5.0f32, 7.0f32], [9.0f32, 11.0f32, 13.0f32]] }
-- input { [[-1.5f32]] } output { [[-2.0f32]] }
-- input { empty([0][3]f32) } output { empty([0][3]f32) }
-- input { empty([3][0]f32) } output { empty([3][0]f32) }
-- input { empty([0][0]f32) } output { empty([0][0]f32) }
entry main (a: [][]f32) : [][]f32 = map (map (\x -> x * 2 + 1)) a

-- ==
-- entry: add2
-- input { [[1i32, 2i32], [3i32, 4i32], [5i32, 6i32]] [[10i32, 20i32], [30i32, 40i32], [50i32, 60i32]] } output { [[0i32, 20i32], [60i32, 120i32], [200i32, 300i32]] }
-- input { empty([0][2]i32) empty([0][2]i32) } output { empty([0][2]i32) }
entry add2 (a: [][]i32) (b: [][]i32) : [][]i32 = map2 (map2 (\x y -> x * y - y)) a b

-- The index space from iota, with indexing into a free array.
-- ==
-- entry: tab
-- input { 3i64 4i64 [7i64, 8i64, 9i64, 10i64] } output { [[7i64, 16i64, 27i64, 40i64], [107i64, 116i64, 127i64, 140i64], [207i64, 216i64, 227i64, 240i64]] }
-- input { 0i64 4i64 [7i64, 8i64, 9i64, 10i64] } output { empty([0][4]i64) }
-- input { 2i64 0i64 empty([0]i64) } output { empty([2][0]i64) }
entry tab (n: i64) (m: i64) (ys: []i64) : [][]i64 =
  map (\i -> map (\j -> i * 100 + ys[j] * (j + 1)) (iota m)) (iota n)

-- Branches and tuple results in the innermost body.
-- ==
-- entry: branchy
-- input { [[1i32, -2i32, 3i32], [-4i32, 5i32, -6i32]] } output { [[10i32, 2i32, 30i32], [4i32, 50i32, 6i32]] [[false, true, false], [true, false, true]] }
-- input { empty([2][0]i32) } output { empty([2][0]i32) empty([2][0]bool) }
entry branchy (a: [][]i32) : ([][]i32, [][]bool) =
  unzip (map (\r -> unzip (map (\x -> if x < 0 then (-x, true) else (x * 10, false)) r)) a)
