-- ReducePlus (redomap paper, benchmark 1): the sum of an array of integers.
--
-- Try it in the REPL after `:load examples/reduce_plus.fut`:
--   main (iota 10 |> map i32.i64)

-- ==
-- input { [1i32, 2i32, 3i32, 4i32] } output { 10i32 }
-- input { empty([0]i32) } output { 0i32 }
-- input { [2147483647i32, 1i32] } output { -2147483648i32 }
-- plan { reduce 1 map 0 }
entry main (xs: []i32) : i32 = reduce (+) 0 xs
