-- Boolean operators and equality on booleans.
-- ==
-- input { true true } output { true true true false }
-- input { true false } output { false true false true }
-- input { false false } output { false false true false }
entry main (a: bool) (b: bool) : (bool, bool, bool, bool) =
  (a && b, a || b, a == b, a != b)
