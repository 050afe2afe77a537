-- Pattern forms in lambda and function parameters.
def dot ((a, b): (f32, f32)) ({x, y}: {x: f32, y: f32}) = a * x + b * y

-- ==
-- input { [1f32, 2f32] [3f32, 4f32] } output { [3f32, 8f32] [7f32, 10f32] 11f32 }
entry main (xs: []f32) (ys: []f32) =
  (map (\(a, b) -> a * b) (zip xs ys),
   map (\(_: f32, (b: f32, c)) -> b + c) (zip xs (zip ys ys) |> map (\(a, (b, c)) -> (a, (b, c + a)))),
   dot (xs[0], xs[1]) {x = ys[0], y = ys[1]})
