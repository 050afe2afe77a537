-- Futhark has no float // or %% (they belong to integral types only):
-- they are type errors, on either backend.
-- ==
-- error: operator // is not defined on f64
entry main (x: f64) (y: f64) = (x // y, x %% y)
