-- map2 requires arrays of one size: two different size parameters are a
-- type error when the program is loaded, not a run-time failure.
-- ==
-- error: Sizes "[nm]" and "[nm]" do not match
def main [n] [m] (xs: [n]i32) (ys: [m]i32) = map2 (+) xs ys
