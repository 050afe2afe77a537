-- ... and a consumed destination is not usable after the scatter.
-- ==
-- error: Using variable "dest", but this was consumed

entry main (dest: *[]i32) (is: []i64) (vs: []i32) : []i32 =
  let r = scatter dest is vs
  in map2 (+) r dest
