-- A match on a tuple of per-element values inside a map over a large
-- array (a GPU kernel on the GPU backend).
-- ==
-- input { 1000i64 } output { 3400i64 }
entry main (n: i64) =
  i64.sum (map (\i -> match (i % 2 == 0, i % 5)
                      case (true, 0) -> 10
                      case (true, _) -> 5
                      case (false, 0) -> 0
                      case _ -> 1) (iota n))
