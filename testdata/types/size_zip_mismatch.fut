-- zip, like map2, requires its arrays to have one size.
-- ==
-- error: Cannot apply "zip".*Sizes "[nm]" and "[nm]" do not match
def main [n] [m] (xs: [n]i32) (ys: [m]f32) : [](i32, f32) = zip xs ys
