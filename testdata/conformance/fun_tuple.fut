-- Function values in tuples: stored, projected, applied and matched by
-- tuple patterns, as Futhark allows (not in arrays, if results or loops).
-- ==
-- input { 3i32 } output { 10i32 7i32 4i32 6i32 }

def inc (x: i32) = x + 1
def dbl (x: i32) = x * 2

entry main (x: i32) =
  let fs = (inc, dbl)
  let (p, q) = (inc, dbl)
  let one = (fs.0 x + fs.1 x)
  let two = p (q x)
  let three = (.0) fs x
  let four = (\(f, y) -> f y) (dbl, x)
  in (one, two, three, four)
