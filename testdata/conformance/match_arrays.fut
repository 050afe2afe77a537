-- match results may be arrays, and a match may sit inside a loop; the
-- scrutinee is evaluated once.
-- ==
-- input { 4i64 } output { [0i64, 1i64, 1i64, 3i64] }
entry main (n: i64) =
  loop acc = replicate n 0 for i < n do
    let v = match i % 3
            case 0 -> i
            case 1 -> 1
            case _ -> acc[i - 1]
    in acc with [i] = v
