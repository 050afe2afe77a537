-- A loop parameter declared with a size must start at that size.
-- ==
-- error: Initial loop values do not have expected type.*\[n\]i32.*"n" and "m" do not match
def main [m] (xs: [m]i32) (n: i64) =
  loop (ys: [n]i32) = xs for _i < 3 do replicate n (ys[0] + 1)
