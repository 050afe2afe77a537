-- && binds tighter than ||, ! binds tightest.
-- ==
-- input { false false true } output { true false }
-- input { true false false } output { false false }
-- input { false true false } output { false true }
entry main (a: bool) (b: bool) (c: bool) : (bool, bool) =
  (a && b || c, !a && !c || a && b)
