-- Derivatives of the scalar operators (lang/ad/rules.go), forward and
-- reverse, against values derived by hand: for f x = sqrt x + exp x + ...,
-- f' x = 1/(2 sqrt x) + exp x + ..., evaluated at the input.

-- d/da (a*b + a/b - b) = b + 1/b; d/db = a - a/b² - 1.
-- ==
-- entry: arith_jvp arith_vjp
-- input { 3.0 2.0 } output { 2.5 1.25 }
-- input { -1.0 4.0 } output { 4.25 -1.9375 }
def arith (a: f64, b: f64) = a * b + a / b - b

entry arith_jvp x y = (jvp arith (x, y) (1, 0), jvp arith (x, y) (0, 1))

entry arith_vjp x y = vjp arith (x, y) 1

-- The sum of eight functions of one argument; its derivative at 0.5 is
-- 1/(2 sqrt x) + exp x + 1/x + cos x - sin x + 1/cos² x + 1 - tanh² x +
-- 1/(1+x²).
-- ==
-- entry: fns_jvp fns_vjp
-- input { 0.5 } output { 7.638879218548296 }
def fns (x: f64) =
  f64.sqrt x + f64.exp x + f64.log x + f64.sin x + f64.cos x + f64.tan x + f64.tanh x + f64.atan x

entry fns_jvp x = jvp fns x 1

entry fns_vjp x = vjp fns x 1

-- asin + acos has derivative 0; then cosh, sinh, log2, log10, log1p, cbrt.
-- ==
-- entry: fns2_jvp fns2_vjp
-- input { 0.5 } output { 6.598500666940626 }
def fns2 (x: f64) =
  f64.asin x + f64.acos x + f64.sinh x + f64.cosh x + f64.log2 x + f64.log10 x + f64.log1p x + f64.cbrt x

entry fns2_jvp x = jvp fns2 x 1

entry fns2_vjp x = vjp fns2 x 1

-- x ** y: y x^(y-1) and x^y log x; atan2 y x: x/(x²+y²) and -y/(x²+y²);
-- hypot 3 4: 3/5 and 4/5; erf 2: 2/sqrt(pi) exp(-4).
-- ==
-- entry: binary
-- input { 2.0 3.0 } output { 12.0 5.545177444479562 0.4 -0.2 0.6 0.8 0.020666985354092053 }
entry binary (x: f64) (y: f64) =
  let (px, py) = vjp (\(a, b) -> a ** b) (x, y) 1
  let (ay, ax) = vjp (\(b, a) -> f64.atan2 b a) (1, x) 1
  let (hx, hy) = vjp (\(a, b) -> f64.hypot a b) (3, 4) 1
  in (px, py, ay, ax, hx, hy, jvp f64.erf x 1)

-- max, min and abs pick the operand they return: at (-3, 5), 2 * max x y
-- + min x y + abs x has partials 1 + sgn(-3) = 0 and 2.
-- ==
-- entry: pick
-- input { -3.0 5.0 } output { 0.0 2.0 }
-- input { 7.0 5.0 } output { 3.0 1.0 }
entry pick x y = vjp (\(a, b) -> 2 * f64.max a b + f64.min a b + f64.abs a) (x, y) 1

-- Integers are differentiated with integer arithmetic, as in Futhark:
-- d/dx x³ = 3x², and the pullback of 10 through x * 7 is 70 (wrapping).
-- ==
-- entry: ints
-- input { 4i64 } output { 48i64 70i64 }
entry ints (x: i64) = (jvp (\a -> a * a * a) x 1, vjp (\a -> a * 7) x 10)

-- A conversion carries the tangent: d/dx (f64 x * 2) = 2 with x an f32.
-- ==
-- entry: conv
-- input { 1.5f32 } output { 2.0 4.0f32 }
entry conv (x: f32) = (jvp (\a -> f64.f32 a * 2) x 1, vjp (\a -> f64.f32 a * 2) x 2)

-- jvp2 and vjp2 also return the primal result.
-- ==
-- entry: with_primal
-- input { 3.0 } output { 9.0 6.0 9.0 12.0 }
entry with_primal (x: f64) =
  let (y, dy) = jvp2 (\a -> a * a) x 1
  let (y', dx) = vjp2 (\a -> a * a) x 2
  in (y, dy, y', dx)

-- A second derivative by nesting: d²/dx² x³ = 6x; forward over reverse.
-- ==
-- entry: second
-- input { 2.0 } output { 12.0 12.0 }
entry second (x: f64) =
  ( jvp (\a -> jvp (\b -> b * b * b) a 1) x 1
  , jvp (\a -> vjp (\b -> b * b * b) a 1) x 1
  )

-- f32 values, and a constant function: its derivative is zero.
-- ==
-- entry: f32s
-- input { 2f32 } output { 4f32 0f32 }
entry f32s (x: f32) = (vjp (\a -> a * a) x 1, jvp (\_ -> 3f32) x 1)

-- A bit cast's tangent is the bit cast of the tangent (Futhark's rule):
-- the bits of 1.0f32 are 1065353216.
-- ==
-- entry: bits
-- input { 3f32 } output { 1065353216u32 }
entry bits (x: f32) = jvp f32.to_bits x 1
