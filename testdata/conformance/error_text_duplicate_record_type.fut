-- A record type naming a field twice is rejected with Futhark's wording.
-- ==
-- error: Duplicate fields
type pair = {lo: f64, hi: f64, lo: f64}
entry main (p: pair) : f64 = p.hi
