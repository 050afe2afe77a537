-- The non-unique component of a function's tuple result aliases its
-- argument, an observed parameter here: it cannot be updated in place.
-- ==
-- error: Consuming variable "xs", which is not consumable

def copy_and_keep (xs: []i32) : (*[]i32, []i32) = (copy xs, xs)

entry main (xs: []i32) : ([]i32, []i32) =
  let (a, b) = copy_and_keep xs
  let b[0] = 9
  in (a, b)
