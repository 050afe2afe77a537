-- Top-level constants and entry points without parameters.
def base : i64 = 40

def offsets = [1i64, 2i64]

-- ==
-- input { } output { 43i64 }
entry main : i64 = base + reduce (+) 0 offsets
