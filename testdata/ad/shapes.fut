-- A tangent of another shape than the argument is an error at the call.
-- ==
-- input { [1.0, 2.0, 3.0] [1.0] } error: 5:44: jvp: the tangent's shape differs
-- input { [1.0, 2.0] [1.0, 0.0] } output { 1.0 }
entry main (xs: []f64) (ds: []f64) : f64 = jvp (\a -> a[0]) xs ds
