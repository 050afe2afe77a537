-- A field access on a value whose record type is not yet known is
-- ambiguous (Futhark's word), as arepl does not defer field constraints.
-- ==
-- error: record type for field hi: the type is ambiguous
def upper p = p.hi
entry main (x: i64) = upper {lo = x, hi = x + 1}
