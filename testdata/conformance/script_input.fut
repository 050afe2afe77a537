-- script input { e }: the input is the value of a FutharkScript expression
-- that calls entry points; an n-tuple becomes n arguments.
-- ==
-- entry: total
-- script input { mk 5i64 } output { 10i64 }
-- script input { mk (double 3i64) } output { 15i64 }
-- script input { $loaddata "data/script_xs.in" } output { 6i64 }
-- script input { mk (-1i64) } error: Range 0..1..<-1 is invalid|negative
-- script input { helper 3i64 } error: not an entry point

-- ==
-- entry: scale
-- script input { (mk 4i64, 3i64) } output { [0i64, 3i64, 6i64, 9i64] }
-- script input { pair 2i64 } output { [0i64, 10i64] }
-- script input { $loaddata "data/script_pair.in" } output { [7i64, 14i64] }

def helper (n: i64) = iota n

entry mk (n: i64) : []i64 = helper n
entry double (n: i64) : i64 = 2 * n
entry pair (n: i64) : ([]i64, i64) = (iota n, 10)
entry total (xs: []i64) : i64 = reduce (+) 0 xs
entry scale (xs: []i64) (k: i64) : []i64 = map (* k) xs
