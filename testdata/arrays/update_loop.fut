-- In-place updates inside a loop build an array element by element.
-- ==
-- input { 5i64 } output { [0i64, 1i64, 4i64, 9i64, 16i64] }
-- input { 0i64 } output { empty([0]i64) }
entry main (n: i64) : []i64 =
  loop acc = replicate n 0 for i < n do
    acc with [i] = i * i
