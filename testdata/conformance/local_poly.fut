-- A local function with type parameters is polymorphic: each use may be
-- at another type, as with a top-level one.
-- ==
-- entry: two_types
-- input { 4i32 } output { 4i32 true }
entry two_types (x: i32) : (i32, bool) =
  let id 'a (y: a) : a = y
  in (id x, id true)

-- Passed to map at two element types, and referring to a free variable.
-- ==
-- entry: mapped
-- input { [1i32, 2i32] [1.5f32] 3i64 } output { [1i32, 2i32] [3i64, 3i64] [1.5f32] [3i64] }
entry mapped (xs: []i32) (ys: []f32) (k: i64) : ([]i32, []i64, []f32, []i64) =
  let tag 't (v: t) : (t, i64) = (v, k)
  let (a, b) = unzip (map tag xs)
  let (c, d) = unzip (map tag ys)
  in (a, b, c, d)

-- Type and size parameters together, at arrays of two sizes and types.
-- ==
-- entry: sized
-- input { [1i32, 2i32, 3i32] } output { 3i64 2i64 true }
entry sized (xs: []i32) : (i64, i64, bool) =
  let len [n] 'a (_: [n]a) : i64 = n
  let firsts [n] 'a (as: [n]a) (bs: [n]a) : (a, a) = (as[0], bs[0])
  in (len xs, len [true, false], (firsts [true] [false]).0)

-- Inside a polymorphic top-level function, at the outer parameter's type
-- and at another.
-- ==
-- entry: nested
-- input { 7i32 } output { 7i32 7i32 false false }
def pair_up 't (x: t) : ((t, t), (bool, bool)) =
  let dup 'a (y: a) : (a, a) = (y, y)
  in (dup x, dup false)
entry nested (x: i32) : (i32, i32, bool, bool) =
  let ((a, b), (c, d)) = pair_up x
  in (a, b, c, d)

-- A local function with a size parameter, applied to arrays of different
-- sizes, and its size used as a value.
-- ==
-- entry: sizes
-- input { [1i32, 2i32, 3i32] } output { [3i32, 4i32, 5i32] [3i32, 4i32] }
entry sizes (xs: []i32) : ([]i32, []i32) =
  let plus_len [n] (ys: [n]i32) : [n]i32 = map (+ i32.i64 n) ys
  in (map (\x -> x - 1) (plus_len xs), plus_len [1, 2])

-- A higher-order polymorphic local function.
-- ==
-- entry: twice
-- input { 3i32 } output { 5i32 2.0f64 }
entry twice (x: i32) : (i32, f64) =
  let app2 'a (f: a -> a) (y: a) : a = f (f y)
  in (app2 (+ 1) x, app2 (/ 2) 8.0)

-- A polymorphic local function whose body uses another: each instance of
-- the outer one instantiates the inner one at its own type (this was
-- rejected, "body has type a", even at one type).
-- ==
-- entry: calls_poly
-- input { 7i32 } output { 7i32 true 7i32 }
entry calls_poly (x: i32) : (i32, bool, i32) =
  let id 'a (y: a) : a = y
  let twice 'a (y: a) : (a, a) = (id y, id y)
  let first 'a (y: a) : a = (twice y).0
  in (first x, first true, (twice (id x)).1)

-- A chain of them, each calling the one before at its own parameter's type
-- and at i32.
-- ==
-- entry: chain
-- input { 5i32 } output { 5i32 false [5i32, 1i32] }
entry chain (x: i32) : (i32, bool, []i32) =
  let f0 'a (y: a) : a = y
  let f1 'a (y: a) : a = (f0 y, f0 1i32).0
  let f2 'a (y: a) : a = (f1 y, f1 2i32).0
  let f3 'a (y: a) : a = (f2 y, f2 3i32).0
  in (f3 x, f3 false, f3 [x, f0 1i32])
