-- Figure 3, case 3: x is used inside a loop; fusing its map there would
-- compute it again in every iteration.
entry main (a: []i32) (n: i64) : []i32 =
  let x = map (* 2) a
  in loop arr = a for i < n do map2 (+) arr x
