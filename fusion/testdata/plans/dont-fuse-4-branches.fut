-- Figure 3, case 4: x is consumed on two control-flow paths.
entry main (c: bool) (arr: []i32) : ([]i32, []i32) =
  let x = map (+ 1) arr
  let y = if c then map (* 2) x else map (* 3) x
  let z = map (+ 4) x
  in (y, z)
