-- Module types built with include, nested module specs and module
-- lambdas; a module type's sizes named by its own value specs.
-- ==
-- input { 3i64 } output { [0i64, 1i64, 2i64] 9i64 }

module type has_len = { val len : i64 }

module type counter = {
  include has_len
  module ops: { type t val step : t -> t }
  val upto : [len]i64
}

module c3 : counter = {
  def len = 3i64
  module ops = { type t = i64 def step (x: t) = x + 1 }
  def upto : [len]i64 = iota len
}

module sq = \(P: has_len) -> { def area = P.len * P.len }

module a = sq c3

def main (n: i64) = (iota n :> [c3.len]i64, a.area + c3.ops.step 0 - 1)
