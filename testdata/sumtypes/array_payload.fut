-- Array payloads: an inactive one is blank with the size that unification
-- found for the active ones, so an array of sum values is regular.
-- ==
-- input { [1, 2, 3] } output { [0, 6, 6] 3i64 }

type maybe 'a = #none | #some a

def total (m: maybe ([]i32)) : i32 =
  match m
  case #none -> 0
  case #some xs -> reduce (+) 0 xs

entry main [n] (xs: [n]i32) : ([]i32, i64) =
  let ms = [#none, #some xs, #some (map (* 2) xs |> map (\x -> x / 2))] : [](maybe ([]i32))
  in (map total ms, length ms)
