-- A record update whose new value has the wrong type names the field.
-- ==
-- error: in record update of record field "pos.y"

entry main (x: f64) =
  let r = {pos = {x = x, y = x}, id = 0i32}
  let r' = r with pos.y = true
  in r'.pos.x
