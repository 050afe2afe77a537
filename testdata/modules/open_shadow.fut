-- A top-level open brings a module's names into scope; a later
-- definition shadows an opened name, and a parameter or a let shadows a
-- module member inside the module's own functions.
-- ==
-- input { 5 } output { 5 17 7 }

module m = {
  def k = 10i32
  def same (k: i32) = k
  def plus (x: i32) = let k = 7 in x + k
  def rec_sum (n: i32) : i32 = if n <= 0 then 0 else n + rec_sum (n - 1)
}

open m

def from_open = plus k

def k = 7i32

def main (x: i32) = (same x, from_open, k + rec_sum 0)
