-- A tuple passed for a consuming parameter may not hold one array twice.
-- ==
-- error: Argument passed for consuming parameter is self-aliased

def first (p: *([]i32, []i32)) : i32 = p.0[0] + p.1[0]

entry main (xs: *[]i32) : i32 = first (xs, xs)
