-- A module's body may not define a value twice, as Futhark checks every
-- declaration list; a type may share a value's name (its own namespace).
-- ==
-- error: Duplicate definition of name scale\. Previously defined at

module geometry = {
  type scale = f64
  def scale (x: f64) : scale = x * 2
  def scale (x: f64) : scale = x * 3
}

def main (x: f64) = geometry.scale x
