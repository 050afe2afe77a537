-- Derivatives through control flow, recursion, tuples, records and
-- in-place updates.

-- A for loop carries the tangent in its state: d/dx x⁴ = 4x³.
-- ==
-- entry: for_loop
-- input { 2.0 } output { 32.0 32.0 }
def pow4 (x: f64) = loop acc = 1 for _i < 4 do acc * x

entry for_loop x = (jvp pow4 x 1, vjp pow4 x 1)

-- A while loop squaring three times is x⁸: 8x⁷.
-- ==
-- entry: while_loop
-- input { 1.1 } output { 15.58973680000001 }
entry while_loop (x: f64) =
  vjp (\a -> (loop (y, i) = (a, 0i32) while i < 3 do (y * y, i + 1)).0) x 1

-- A loop whose state gets a tangent only from the body: the sum starts at
-- a constant.
-- ==
-- entry: loop_grows
-- input { 3.0 } output { 5.0 }
entry loop_grows (x: f64) =
  jvp (\a -> loop s = 0 for i < 5 do s + a * f64.i64 i / 2) x 1

-- if: each branch's derivative.
-- ==
-- entry: branch
-- input { 3.0 } output { 6.0 }
-- input { -2.0 } output { -1.0 }
entry branch (x: f64) = vjp (\a -> if a > 0 then a * a else -a) x 1

-- Recursion: the forward-mode version of the recursive function is
-- called; d/dx x⁵ = 5x⁴.
-- ==
-- entry: recursive
-- input { 2.0 } output { 80.0 80.0 }
def pow_rec (n: i32) (x: f64) : f64 = if n == 0 then 1 else x * pow_rec (n - 1) x

entry recursive x = (jvp (pow_rec 5) x 1, vjp (pow_rec 5) x 1)

-- Tuples in and out.
-- ==
-- entry: tuples
-- input { 3.0 } output { 6.0 3.0 }
entry tuples (x: f64) = jvp (\a -> (a * a, 3 * a)) x 1

-- Records: the tangent and the cotangent are records too.
-- ==
-- entry: records
-- input { 2.0 5.0 } output { 6.0 6.0 2.0 }
def rec_f (r: {a: f64, b: f64}) = r.a * r.b + r.a

entry records (a: f64) (b: f64) =
  let g = vjp rec_f {a, b} 1
  in (jvp rec_f {a, b} {a = 1, b = 0}, g.a, g.b)

-- An in-place update: ys = xs with [1] = xs[0] * xs[2]; sum ys.
-- ==
-- entry: updated
-- input { [1.0, 2.0, 3.0] } output { [4.0, 0.0, 2.0] }
entry updated (xs: []f64) =
  vjp (\a -> let ys = copy a with [1] = a[0] * a[2] in f64.sum ys) xs 1

-- Indexing and array operations: reverse, concatenation, transpose.
-- ==
-- entry: arrays
-- input { [[1.0, 2.0], [3.0, 4.0]] } output { [[4.0, 2.0], [3.0, 1.0]] }
entry arrays (m: [][]f64) =
  let f (m: [][]f64) = let t = transpose m in f64.sum (map2 (*) (reverse (concat t[0] t[1])) [1, 2, 3, 4])
  in vjp f m 1

-- Free variables of the function are constants: xs is not differentiated.
-- ==
-- entry: closure
-- input { [1.0, 2.0] 3.0 } output { 3.0 }
entry closure (xs: []f64) (c: f64) = jvp (\a -> f64.sum (map (* a) xs)) c 1
