-- An array may not hold a sum type that carries a function.
-- ==
-- error: Cannot create array with elements of lifted type

type^ op = #add i32 | #scale (i32 -> i32)

entry main (k: i32) : i32 =
  let ops = [#add k, #scale (* k)] : []op
  in length ops |> i32.i64
