-- The scanomap paper's scanomap-scanomap: two independent map-scans over the
-- same width become one scanomap with two scans.
entry main [n] (xs: [n]i32) (ys: [n]i32) : ([n]i32, [n]i32) =
  let as = scan (+) 0 (map (* 2) xs)
  let bs = scan (*) 1 (map (+ 1) ys)
  in (as, bs)
