-- A decimal literal that rounds to infinity is out of bounds, in f64 as
-- in f32.
-- ==
-- error: 2e308 is out of bounds for type f64

entry huge : f64 = 2e308 / 2
