-- Module types, ascription and parametric modules: a functor applied to
-- a user module, to a numeric module, curried over two parameters, and
-- with a refined abstract type.
-- ==
-- input { 4i64 } output { 10i64 12.0f32 24i32 7i64 }

module type monoid = {
  type t
  val zero : t
  val op : t -> t -> t
}

module sum_i64 : monoid with t = i64 = {
  type t = i64
  def zero = 0i64
  def op (a: t) (b: t) = a + b
}

module fold (M: monoid) = {
  def total [n] (xs: [n]M.t) : M.t = reduce M.op M.zero xs
}

module type num = {
  type t
  val + : t -> t -> t
  val i64 : i64 -> t
}

module doubler (N: num) = {
  def double (x: N.t) = x N.+ x
  def from (n: i64) = double (N.i64 n)
}

module pair (A: monoid) (B: monoid) = {
  type t = (A.t, B.t)
  def zero : t = (A.zero, B.zero)
  def op ((a1, b1): t) ((a2, b2): t) : t = (A.op a1 a2, B.op b1 b2)
}

module prod_i32 = {
  type t = i32
  def zero = 1i32
  def op (a: i32) (b: i32) = a * b
}

module sums = fold sum_i64
module f32d = doubler f32
module both = fold (pair sum_i64 prod_i32)

def main (n: i64) =
  let (s, p) = both.total (map (\i -> (i, i32.i64 (i + 1))) (iota n))
  in (sums.total (iota (n + 1)) - 0, f32d.from 6, i32.i64 s + p - 10 + 4, s + 1)
