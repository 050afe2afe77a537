-- Attributes are accepted and ignored.
-- ==
-- input { [1i32, 2i32, 3i32] } output { 6i32 }
#[inline]
def f (x: i32) = x
entry main (xs: []i32) : i32 = #[sequential] reduce (+) 0 (map f xs)
