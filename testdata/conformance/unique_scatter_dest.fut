-- scatter consumes its destination, as in Futhark's prelude
-- (`dest: *[k]t`): an observed parameter cannot be the destination.
-- ==
-- error: Consuming variable "dest"

entry main (dest: []i32) (is: []i64) (vs: []i32) : []i32 = scatter dest is vs
