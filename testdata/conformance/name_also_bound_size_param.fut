-- A size parameter and a value parameter share one namespace: naming both
-- the same is an error, as in Futhark.
-- ==
-- error: Name "k" also bound at 6:11

def count [k] (k: [k]bool) = length k

entry main (xs: []bool) = count xs
