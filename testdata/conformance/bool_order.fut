-- Booleans are ordered: false < true (issue 17, bug 4).
-- ==
-- input { true false } output { false true false true }
entry main (a: bool) (b: bool) : (bool, bool, bool, bool) = (a < b, a > b, a <= b, a >= b)
