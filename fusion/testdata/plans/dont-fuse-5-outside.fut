-- Figure 3, case 5: x is used outside SOAC inputs before its consumer.
entry before (a: []i32) (i: i64) : []i32 =
  let x = map (+ 1) a
  let k = x[i]
  let y = map (* k) x
  in y

-- The paper's own example uses x after the consumer: the redomap paper's
-- map-out arrays (§3.2) fuse it without recomputation, so it is not refused.
entry after (a: []i32) (i: i64) : i32 =
  let x = map (+ 1) a
  let y = map (* 2) x
  in x[i] + y[i]
