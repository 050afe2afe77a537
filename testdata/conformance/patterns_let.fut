-- Pattern forms in let: nested tuples, records with renaming and
-- shorthand, wildcards, type ascriptions at any level.
-- ==
-- input { 1 2 3 } output { 6 3 5 }
entry main (a: i32) (b: i32) (c: i32) =
  let ((x, _), (y: i32, z)) = ((a, 0), (b, c))
  let {p, q = (r, _)} = {p = x + y, q = (z, true)}
  let (s: i32, {t}: {t: i32}) = (p + r, {t = b + c})
  in (s, p, t)
