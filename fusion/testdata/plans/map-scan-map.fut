-- A post-map after a scan (the scanomap paper's future work) is fused too.
entry main (xs: []i32) : []i32 =
  map (\s -> s - 1) (scan (+) 0 (map (\x -> x * 3) xs))
