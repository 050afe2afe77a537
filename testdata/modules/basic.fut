-- Modules as namespaces: qualified values, types and operators, nested
-- modules, aliases, open (at the top level and inside a module), local
-- declarations and the local open m.(e).
-- ==
-- entry: main
-- input { 3 } output { 15 }
-- input { 0 } output { 0 }

module geom = {
  type point = (i32, i32)
  def origin : point = (0, 0)
  def shift (d: i32) ((x, y): point) : point = (x + d, y + d)
  local def sq (a: i32) = a * a
  def norm2 ((x, y): point) = sq x + sq y
  module inner = {
    def twice (f: i32 -> i32) (a: i32) = f (f a)
  }
}

module g = geom

module ops = {
  def (+^) (a: i32) (b: i32) = a * 10 + b
  def scale = 2i32
}

module with_open = {
  open ops
  -- scale and +^ come from ops, and are exported again.
  def both (a: i32) = a +^ scale
}

def main (n: i32) : i32 =
  let p : g.point = geom.shift n geom.origin
  let q = geom.inner.twice (\a -> a + 1) n
  in geom.norm2 p - q + with_open.both 1 - 12 + ops.(scale * 2) + (ops.+^) 0 2 - 4 + with_open.scale * 0
