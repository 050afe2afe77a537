-- An array of sum values built by map from plain arrays and consumed by
-- map and reduce: a sum value is a tag and every payload, so the whole
-- pipeline is tuples of arrays to fusion and the backends.
-- ==
-- input { [0, 1, 2, 1, 0] [1f32, 2f32, 3f32, 4f32, 0.5f32] [0f32, 3f32, 0f32, 0.5f32, 0f32] }
-- output { [3f32, 6f32, 0f32, 2f32, 0.75f32] 11.75f32 2i64 }

type shape = #circle f32 | #rect f32 f32 | #empty

def make (k: i32) (x: f32) (y: f32) : shape =
  if k == 0 then #circle x else if k == 1 then #rect x y else #empty

def area (s: shape) : f32 =
  match s
  case #circle r -> 3 * r * r
  case #rect w h -> w * h
  case #empty -> 0

entry main (ks: []i32) (xs: []f32) (ys: []f32) : ([]f32, f32, i64) =
  let shapes = map3 make ks xs ys
  let areas = map area shapes
  let rects = shapes |> map (\s -> match s case #rect _ _ -> 1i64 case _ -> 0) |> reduce (+) 0
  in (areas, reduce (+) 0 areas, rects)
