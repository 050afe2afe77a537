-- Reductions whose operator runs as column code on the CPU (issue 18):
-- tuple operators that are not commutative, over lengths that are odd,
-- even, one and longer than a chunk, with results that are parameters,
-- the same variable twice, constants on the left of an operator, free
-- variables of the operator and a division that fails.

-- The composition of affine maps x -> a*x + b, in order (not commutative).
-- ==
-- entry: affine
-- input { 0i64 } output { 1i64 0i64 }
-- input { 1i64 } output { 1i64 0i64 }
-- input { 2i64 } output { 2i64 1i64 }
-- input { 3i64 } output { 6i64 5i64 }
-- input { 7i64 } output { 36i64 71i64 }
-- input { 100i64 } output { 5527454985320660992i64 8471052152963543758i64 }
-- input { 20001i64 } output { 0i64 3689348814741870319i64 }
entry affine (n: i64) : (i64, i64) =
  reduce (\(a1, b1) (a2, b2) -> (a1 * a2, b1 * a2 + b2)) (1, 0)
         (map (\i -> (i % 3 + 1, i)) (iota n))

-- A result that is a parameter of the operator, and a constant on the
-- left of a subtraction (0 - (0 - b - d) is b + d).
-- ==
-- entry: first
-- input { 1i64 } output { 7i64 0i64 }
-- input { 5i64 } output { 7i64 10i64 }
-- input { 20001i64 } output { 7i64 200010000i64 }
entry first (n: i64) : (i64, i64) =
  reduce (\(a, b) (_, d) -> (a, 0 - (0 - b - d))) (7, 0) (map (\i -> (7, i)) (iota n))

-- The same variable returned twice.
-- ==
-- entry: twice
-- input { 6i64 } output { 15i32 15i32 }
-- input { 20001i64 } output { 200010000i32 200010000i32 }
entry twice (n: i64) : (i32, i32) =
  reduce (\(a, _) (c, _) -> let s = a + c in (s, s)) (0, 0)
         (map (\i -> (i32.i64 i, i32.i64 i)) (iota n))

-- A free variable of the operator, and a division by it that fails.
-- ==
-- entry: modsum
-- input { 10i64 7i32 } output { 3i32 }
-- input { 20001i64 1000i32 } output { 0i32 }
-- input { 5i64 0i32 } error: division by zero
entry modsum (n: i64) (m: i32) : i32 =
  reduce (\x y -> (x + y) % m) 0 (map i32.i64 (iota n))

-- ==
-- entry: quotient
-- input { 5i64 1i32 } output { 10i32 }
-- input { 5i64 0i32 } error: division by zero
entry quotient (n: i64) (d: i32) : i32 =
  reduce (\x y -> (x + y) / d) 0 (map i32.i64 (iota n))
