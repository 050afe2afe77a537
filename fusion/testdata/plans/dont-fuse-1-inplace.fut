-- Figure 3, case 1: fusing x's map into y's would move the read of a
-- across its in-place update.
entry main (a: *[]f32) : ([]f32, []f32) =
  let x = map (+ 1) a
  let a[1] = 3.33
  let y = map (* 2) x
  in (a, y)
