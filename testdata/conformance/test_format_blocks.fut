-- A file with several blocks in futhark test's format: block tags, entry
-- lines naming several entry points, case tags (compiled, nobench, a
-- backend's no_ tag), named cases, structure and warning items (accepted,
-- not run: they test Futhark's compiler), and values spread over lines.
-- ==
-- tags { no_opencl some-tag }
-- entry: double double_too
-- compiled input { [1, 2] } output { [2, 4] }
-- nobench input { empty([0]i32) } output { empty([0]i32) }
-- "spread" input {
--   [3,
--    4]
-- }
-- output {
--   [6, 8]
-- }
-- structure { Screma 1 }
-- structure gpu { SegMap 1 }
-- warning: unused

entry double (xs: []i32) = map (* 2) xs
entry double_too (xs: []i32) = map (\x -> x + x) xs

-- Each block has its own entry points and cases.
-- ==
-- entry: pair
-- input { 3 } output { 3 true }
-- input { -3 } output { -3 false }
entry pair (x: i32) : (i32, bool) = (x, x > 0)
