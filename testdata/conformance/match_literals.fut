-- match on integer literals (negative ones too) with a wildcard last, as
-- Futhark's match works without sum types.
-- ==
-- input { [1, 2, -3, 7, 0] } output { [10, 20, -1, 0, 0] }
entry main (xs: []i32) =
  map (\x -> match x
             case 1 -> 10
             case 2 -> 20
             case -3 -> -1
             case _ -> 0) xs
