-- A record literal giving a field twice names where it was first given.
-- ==
-- error: lo is given twice \(previously defined at 5:13\)
entry main (a: i64) (b: i64) =
  let r = { lo = a, hi = b, lo = b + 1 }
  in r.hi - r.lo
