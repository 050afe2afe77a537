def main (n: i64) : i64 =
  let (s, _) = loop (s, j) = (0i64, 0i64) while j < n do (s + j, j + 1)
  in s
