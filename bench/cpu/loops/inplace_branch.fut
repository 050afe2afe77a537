-- A loop-carried array updated under a branch: in place, linear in n.
entry main (n: i64) : i64 =
  let a = replicate n 0i64
  let a = loop a for i < n do if i % 3 != 0 then a with [i] = i else a
  in reduce (+) 0 a
