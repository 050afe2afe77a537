-- match patterns with type ascriptions, on the whole and inside.
-- ==
-- input { 3u8 } output { 30u8 }
-- input { 4u8 } output { 4u8 }
entry main (x: u8) =
  match (x, 1i32)
  case ((3: u8), _: i32) -> x * 10
  case (y: u8, _) -> y
