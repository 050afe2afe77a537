-- iota and replicate whose size argument is a product of sizes in scope and
-- constants have the type [a*b]t, as in Futhark, so unflatten splits them
-- without an ascription; through maps and scans the product carries along.
-- ==
-- entry: grid
-- input { 2i64 3i64 }
-- output { [[0i64, 1i64, 2i64], [3i64, 4i64, 5i64]] }
-- input { 0i64 4i64 }
-- output { empty([0][4]i64) }
-- input { -1i64 -1i64 }
-- error: Cannot unflatten array of shape \[1\] to array of shape \[-1\]\[-1\]

-- ==
-- entry: row_sums
-- input { 3i64 2i64 }
-- output { [2i64, 12i64, 30i64] }

-- ==
-- entry: cube
-- input { 2i64 }
-- output { [[[1i32, 1i32], [1i32, 1i32]], [[1i32, 1i32], [1i32, 1i32]]] }

-- ==
-- entry: constant
-- input { }
-- output { [[1i32, 2i32], [3i32, 4i32], [5i32, 6i32]] }

entry grid (a: i64) (b: i64) = unflatten (iota (a * b))

entry row_sums (r: i64) (c: i64) =
  iota (r * c) |> map (* 2) |> scan (+) 0 |> unflatten |> map (\row -> row[c - 1])

entry cube (n: i64) = unflatten_3d (replicate (n * n * n) 1i32)

entry constant = map i32.i64 (iota (3 * 2)) |> map (+ 1) |> unflatten
