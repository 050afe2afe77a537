-- Passing an observed array for a consuming (`*`) parameter consumes it.
-- ==
-- error: Consuming variable "xs", which is not consumable

def zero_first (a: *[]i32) : *[]i32 = a with [0] = 0

entry main (xs: []i32) : []i32 = zero_first xs
