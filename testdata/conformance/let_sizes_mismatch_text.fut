-- A size-binding let whose value has another element type: the message
-- says the pattern cannot match and names the let, not the function the
-- parser makes of it.
-- ==
-- error: Pattern cannot match value of type.*size-binding let
entry main (ys: []i64) : []i32 =
  let [n] (a: [n]i32) = ys
  in a
