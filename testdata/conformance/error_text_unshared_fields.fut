-- A record whose fields differ from the ones expected lists the fields
-- only one side has.
-- ==
-- error: unshared fields: hi, mid\.
def span (a: i64) : {lo: i64, hi: i64} = {lo = a, mid = a}
entry main (a: i64) = (span a).lo
