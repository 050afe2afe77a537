-- A function's size parameter stands for one size at each call: its two
-- parameters of size [n] cannot take arrays of sizes [n] and [m].
-- ==
-- error: Cannot apply "dot".*Sizes "n" and "m" do not match
def dot [n] (xs: [n]f32) (ys: [n]f32) : f32 = reduce (+) 0 (map2 (*) xs ys)

def main [n] [m] (xs: [n]f32) (ys: [m]f32) = dot xs ys
