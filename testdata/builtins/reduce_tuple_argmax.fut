-- reduce over (value, index) pairs: the index of the first maximum.
def argmax (a: f32, i: i64) (b: f32, j: i64) : (f32, i64) =
  if a > b then (a, i) else if b > a then (b, j) else if i < j then (a, i) else (b, j)

-- ==
-- input { [1.0f32, 5.0f32, 2.0f32, 5.0f32] } output { 5.0f32 1i64 }
-- input { empty([0]f32) } output { -f32.inf -1i64 }
entry main (xs: []f32) : (f32, i64) = reduce argmax (-f32.inf, -1) (zip xs (indices xs))
