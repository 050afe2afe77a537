-- Script and file inputs: passing, a wrong output, a call of a non-entry,
-- a runtime error inside the script, and a missing data file.
-- ==
-- script input { mk 3i64 } output { 3i64 }
-- script input { mk 3i64 } output { 4i64 }
-- script input { helper 3i64 } output { 3i64 }
-- script input { mk (-3i64) } output { 3i64 }
-- input @ data/three.in output { 3i64 }
-- input @ data/missing.in output { 3i64 }
-- script input { $loaddata "data/three.in" } output { 3i64 }

def helper (n: i64) = iota n
entry mk (n: i64) : []i64 = helper n
entry main (xs: []i64) : i64 = length xs
