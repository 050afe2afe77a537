-- map (reduce) over rows is a segmented reduction; map (scan) a segmented scan.
entry sums [n][m] (xss: [n][m]i32) : [n]i32 =
  map (\row -> reduce (+) 0 row) xss

entry prefix [n][m] (xss: [n][m]i32) : [n][m]i32 =
  map (\row -> scan (+) 0 row) xss
