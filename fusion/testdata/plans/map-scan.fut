-- The scanomap paper's map-scan: one scanomap.
entry main (xs: []i32) : []i32 =
  scan (+) 0 (map (\x -> x * 2 + 1) xs)
