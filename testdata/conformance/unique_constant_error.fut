-- A top-level constant cannot be consumed; the error says it is one.
-- ==
-- error: "table", which is not consumable \(it is a top-level constant\)

def table : []i64 = iota 4

entry main (v: i64) = let t = table with [1] = v in t[1]
