-- Derivatives through the SOACs: a map's tangent is a map of tangents, a
-- reduction or scan works on (value, tangent) pairs with its operator's
-- forward-mode version, reduce_by_index and scatter write tangents where
-- they write values, filter keeps the tangents of the kept elements.

-- d/dx_i of map (x²) pulled back from dy: 2 x_i dy_i.
-- ==
-- entry: squares
-- input { [1.0, 2.0, 3.0] [1.0, 10.0, 100.0] } output { [2.0, 40.0, 600.0] [2.0, 4.0, 6.0] }
entry squares (xs: []f64) (dy: []f64) =
  (vjp (map (\x -> x * x)) xs dy, jvp (map (\x -> x * x)) xs (map (const 1) xs))

-- The gradient of a product is the product of the others.
-- ==
-- entry: product
-- input { [1.0, 2.0, 3.0, 4.0] } output { [24.0, 12.0, 8.0, 6.0] 24.0 }
entry product (xs: []f64) =
  (vjp f64.product xs 1, jvp f64.product xs (map (\i -> f64.bool (i == 0)) (indices xs)))

-- A sum's gradient is all ones; a maximum's is one at the largest element.
-- ==
-- entry: sum_max
-- input { [1.0, 5.0, 3.0] } output { [1.0, 1.0, 1.0] [0.0, 1.0, 0.0] }
entry sum_max (xs: []f64) = (vjp f64.sum xs 1, vjp f64.maximum xs 1)

-- A reduction with a user operator on pairs: the sum of products a*b
-- reduced with (+) on tuples; d/da_i = b_i.
-- ==
-- entry: pairs
-- input { [1.0, 2.0] [3.0, 4.0] } output { [3.0, 4.0] [1.0, 2.0] }
def dotpair (as: []f64, bs: []f64) =
  let (s, _) = reduce (\(x, c) (y, d) -> (x + y, c + d)) (0, 0) (map2 (\a b -> (a * b, a + b)) as bs)
  in s

entry pairs (as: []f64) (bs: []f64) = vjp dotpair (as, bs) 1

-- scan (+): the tangent is the scan of tangents; the pullback of all ones
-- counts how many prefixes each element is in.
-- ==
-- entry: prefix_sums
-- input { [1.0, 2.0, 3.0] } output { [1.0, 2.0, 3.0] [3.0, 2.0, 1.0] }
entry prefix_sums (xs: []f64) =
  (jvp (scan (+) 0) xs (map (const 1) xs), vjp (scan (+) 0) xs (map (const 1) xs))

-- scan (*): the last prefix product's gradient.
-- ==
-- entry: prefix_products
-- input { [1.0, 2.0, 3.0] } output { [6.0, 3.0, 2.0] }
entry prefix_products (xs: []f64) = vjp (scan (*) 1) xs [0, 0, 1]

-- reduce_by_index (+) of squares into two bins, pulled back from [1, 10].
-- ==
-- entry: bins
-- input { [1.0, 2.0, 3.0] } output { [2.0, 40.0, 6.0] [8.0, 4.0] }
entry bins (vs: []f64) =
  let f (vs: []f64) = reduce_by_index (replicate 2 0) (+) 0 [0, 1, 0] (map (\v -> v * v) vs)
  in (vjp f vs [1, 10], jvp f vs (map (const 1) vs))

-- scatter: the destination's overwritten elements lose their cotangent,
-- the written values get the cotangent of where they land.
-- ==
-- entry: scattered
-- input { [1.0, 2.0, 3.0] [7.0, 8.0] } output { [0.0, 2.0, 0.0] [1.0, 3.0] }
entry scattered (xs: []f64) (vs: []f64) =
  vjp (\(a, b) -> scatter (copy a) [0, 2] b) (xs, vs) [1, 2, 3]

-- filter keeps the tangents of the kept elements.
-- ==
-- entry: filtered
-- input { [1.0, -1.0, 2.0] } output { [2.0, 0.0, 2.0] }
entry filtered (xs: []f64) = vjp (\a -> f64.sum (map (* 2) (filter (> 0) a))) xs 1

-- Nested maps: a matrix-vector product's gradient with respect to the
-- matrix is the outer product of the cotangent and the vector.
-- ==
-- entry: matvec
-- input { [[1.0, 2.0], [3.0, 4.0]] [5.0, 6.0] [1.0, 2.0] }
-- output { [[5.0, 6.0], [10.0, 12.0]] [7.0, 10.0] }
entry matvec (m: [][]f64) (v: []f64) (dy: []f64) =
  let mv (m: [][]f64, v: []f64) = map (\row -> f64.sum (map2 (*) row v)) m
  in vjp mv (m, v) dy

-- jmp and mjp: one jvp or vjp per seed (the rows of the Jacobian).
-- ==
-- entry: jacobian
-- input { [1.0, 2.0] } output { [[2.0, 0.0], [0.0, 4.0]] [[2.0, 0.0], [0.0, 4.0]] [1.0, 4.0] }
entry jacobian (xs: [2]f64) =
  let f = map (\x -> x * x)
  let seeds = [[1, 0], [0, 1]]
  let (y, cols) = jmp2 f xs seeds
  in (cols, mjp f xs seeds, y)

-- A derivative inside a map: the derivative of sin at each element.
-- ==
-- entry: pointwise
-- input { [0.0, 1.0] } output { [1.0, 0.5403023058681398] }
entry pointwise (xs: []f64) = map (\x -> jvp f64.sin x 1) xs

-- reduce_by_index with min: each bin's derivative follows the element it
-- picked (forward mode pairs values with tangents; reverse mode takes
-- forward passes for an operator other than +).
-- ==
-- entry: bin_min
-- input { [5.0, 3.0, 4.0] } output { [2.0, 3.0] [0.0, 1.0, 10.0] }
entry bin_min (vs: []f64) =
  let f (a: []f64) = reduce_by_index (replicate 2 f64.inf) f64.min f64.inf [0, 0, 1] a
  in (jvp f vs [1, 2, 3], vjp f vs [1, 10])
