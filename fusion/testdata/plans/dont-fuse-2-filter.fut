-- Figure 3, case 2: a filter's result has a data-dependent size, so it
-- cannot be fused into its consumer.
entry main (a: []i32) (b: []i32) : []i32 =
  let x = filter (> 0) a
  let y = filter (> 0) b
  in map2 (+) x y
