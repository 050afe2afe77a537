-- The branches of an if may have different sizes, but then its size is
-- neither of them: ascribing one is a type error.
-- ==
-- error: explicit ascription.*Sizes "n" and "d[0-9]+" do not match.*\[n\].*\[m\]
def main [n] [m] (b: bool) (xs: [n]i32) (ys: [m]i32) =
  (if b then xs else ys) : [n]i32
