-- An array literal of three elements is not a [4]i32.
-- ==
-- error: explicit ascription.*\[4\]i32.*\[3\]i32.*"4" and "3" do not match
def main (x: i32) = [x, x + 1, x + 2] : [4]i32
