-- The declared result size is checked against the body's.
-- ==
-- error: Function body does not have expected type.*\[n\]i32.*\[m\]i32.*"n" and "m" do not match
def main [n] [m] (xs: [n]i32) (ys: [m]i32) : [n]i32 = map (+ 1) ys
