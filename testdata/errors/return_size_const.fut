-- A constant size in an entry point's return type is checked at run time.
-- ==
-- input { [1i32, 2i32, 3i32] } error: Function return value does not match shape of declared return type
-- input { [7i32, 8i32] } output { [7i32, 8i32] }
def main (xs: []i32) : [2]i32 = xs
