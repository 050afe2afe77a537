-- Reverse mode's return sweep (lang/ad/rev.go): adjoints accumulated where
-- a value is used twice, through gathers inside a map, general reduction
-- operators (by the prefix and suffix of the operands), array-valued
-- operators, and array rearrangements.

-- A gather inside a map: every use of xs[i] adds to its adjoint.
-- ==
-- entry: gather
-- input { [1.0, 2.0, 3.0] [1.0, 10.0, 100.0] } output { [20.0, 0.0, 606.0] }
entry gather (xs: []f64) (dy: []f64) = vjp (\a -> map (\i -> a[i] * a[i]) [2, 0, 2]) xs dy

-- An argmax by a reduction on (value, index) pairs: the gradient of the
-- maximum is one at the largest element.
-- ==
-- entry: argmax
-- input { [3.0, 7.0, 5.0] } output { [0.0, 1.0, 0.0] }
entry argmax (xs: []f64) =
  let f (a: []f64) =
    (reduce (\(x, i) (y, j) -> if x >= y then (x, i) else (y, j)) (-f64.inf, -1i64) (zip a (indices a))).0
  in vjp f xs 1

-- A reduction whose operator adds rows: every row gets the cotangent.
-- ==
-- entry: rows
-- input { [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]] } output { [[1.0, 2.0], [1.0, 2.0], [1.0, 2.0]] }
entry rows (m: [][2]f64) = vjp (reduce (map2 (+)) [0, 0]) m [1, 2]

-- A reduction with multiplication over rows: d/dm_ij of the column
-- products is the product of the column's other elements.
-- ==
-- entry: row_products
-- input { [[1.0, 2.0], [3.0, 4.0]] } output { [[3.0, 4.0], [1.0, 2.0]] }
entry row_products (m: [][2]f64) = vjp (reduce (map2 (*)) [1, 1]) m [1, 1]

-- replicate and flatten: six copies of x.
-- ==
-- entry: copies
-- input { 1.0 } output { 6.0 }
entry copies (x: f64) = vjp (\a -> f64.sum (flatten (replicate 2 (replicate 3 a)))) x 1

-- rotate: (rotate 1 xs)[0] is xs[1].
-- ==
-- entry: rotated
-- input { [1.0, 2.0, 3.0] } output { [0.0, 2.0, 0.0] }
entry rotated (xs: []f64) = vjp (\a -> (rotate 1 a)[0] * 2) xs 1

-- A branch inside a map.
-- ==
-- entry: relu_square
-- input { [2.0, -1.0] } output { [4.0, 0.0] }
entry relu_square (xs: []f64) = vjp (map (\x -> if x > 0 then x * x else 0)) xs [1, 1]

-- A matrix product's adjoints: dA = dY Bᵀ and dB = Aᵀ dY.
-- ==
-- entry: matmul
-- input { [[1.0, 2.0], [3.0, 4.0]] [[5.0, 6.0], [7.0, 8.0]] }
-- output { [[11.0, 15.0], [11.0, 15.0]] [[4.0, 4.0], [6.0, 6.0]] }
def mm (a: [][]f64, b: [][]f64) =
  map (\row -> map (\col -> f64.sum (map2 (*) row col)) (transpose b)) a

entry matmul (a: [2][2]f64) (b: [2][2]f64) = vjp mm (a, b) [[1, 1], [1, 1]]

-- A value used twice and a tuple result.
-- ==
-- entry: shared
-- input { 3.0 } output { 69.0 }
entry shared (x: f64) = vjp (\a -> let s = a * a in (s + a, s * 2)) x (3, 4)

-- A for loop is reversed with a tape of its states: acc = c³x + c + 2
-- after three steps, d/dx = c³ and d/dc = 3c²x + 1.
-- ==
-- entry: loop_scalar
-- input { 2.0 3.0 } output { 27.0 55.0 }
entry loop_scalar (x: f64) (c: f64) =
  vjp (\(a, b) -> loop acc = a for i < 3 do acc * b + f64.i64 i) (x, c) 1

-- Array state, and a free variable of the loop body: sum (xs * c²).
-- ==
-- entry: loop_array
-- input { [1.0, 2.0] 3.0 } output { [9.0, 9.0] 18.0 }
entry loop_array (xs: []f64) (c: f64) =
  vjp (\(a, b) -> f64.sum (loop ys = a for _i < 2 do map (* b) ys)) (xs, c) 1

-- In-place updates in a loop: a running sum, whose last element is the
-- sum of all.
-- ==
-- entry: loop_inplace
-- input { [1.0, 2.0, 3.0] } output { [1.0, 1.0, 1.0] }
entry loop_inplace [n] (xs: [n]f64) =
  vjp (\a -> let s = loop s = copy a for i < n - 1 do s with [i + 1] = s[i + 1] + s[i] in s[n - 1]) xs 1

-- A scan with + is reversed by a scan of the reversed adjoints, for rows
-- too.
-- ==
-- entry: scan_rows
-- input { [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]] } output { [[3.0, 6.0], [2.0, 4.0], [1.0, 2.0]] [3.0, 2.0, 1.0] }
entry scan_rows (m: [][2]f64) =
  ( vjp (scan (map2 (+)) [0, 0]) m [[1, 2], [1, 2], [1, 2]]
  , vjp (scan (+) 0) (map (\r -> r[0]) m) [1, 1, 1]
  )

-- scatter and reduce_by_index ignore indices outside the destination, and
-- so do their adjoints.
-- ==
-- entry: out_of_bounds
-- input { [1.0, 2.0, 3.0, 4.0] } output { [10.0, 0.0, 20.0, 0.0] [1.0, 0.0, 10.0, 1.0] }
entry out_of_bounds (xs: []f64) =
  ( vjp (\a -> scatter (replicate 2 0) [0, 5, 1, -1] a) xs [10, 20]
  , vjp (\a -> reduce_by_index (replicate 2 0) (+) 0 [0, -1, 1, 0] a) xs [1, 10]
  )
