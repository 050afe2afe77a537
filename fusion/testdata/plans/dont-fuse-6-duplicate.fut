-- Figure 3, case 6: x and y come from one map; a histogram consumes x and a
-- filter consumes y, and neither can pass the other array on, so fusing the
-- map into either would compute it twice.
entry main (a: []i64) : ([]i64, []i64) =
  let (x, y) = unzip (map (\v -> (v % 10, v * 2)) a)
  let h = hist (+) 0 10 x (replicate (length x) 1)
  let f = filter (> 5) y
  in (h, f)

-- The paper's own example: two reductions over the two outputs. Horizontal
-- fusion of the reductions first makes one consumer, so nothing is duplicated
-- and everything fuses.
entry reductions (a: []i32) : (i32, i32) =
  let (x, y) = unzip (map (\v -> (v + 1, v * 2)) a)
  let u = reduce (+) 0 x
  let v = reduce (*) 1 y
  in (u, v)
