-- A unique (`*`) result may not alias an observed parameter.
-- ==
-- error: Unique-typed return value is aliased to "xs", which is not consumable

def f (xs: []i32) : *[]i32 = xs

entry main (xs: []i32) : []i32 = f xs
