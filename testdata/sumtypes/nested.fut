-- Constructors inside constructors, with literals and wildcards in the
-- payload patterns; a record of sums; a sum in an array indexed and zipped.
-- ==
-- input { 2 } output { 7 1 }
-- input { 5 } output { 20 2 }

type inner = #none | #some i32 i32
type outer = #foo i32 inner | #bar {x: i32, y: inner}

def f (v: outer) : i32 =
  match v
  case #foo 1 (#some 2 _) -> 1
  case #foo a (#some b c) -> a + b + c
  case #foo a #none -> a
  case #bar {x, y = #some p _} -> x * p
  case #bar {x, y = #none} -> x

entry main (n: i32) : (i32, i32) =
  let vs = [#foo n (#some 2 3), #bar {x = n, y = #some 4 0}, #foo 1 (#some 2 9)] : []outer
  let (i, v) = zip (iota 3) vs |> (\ps -> ps[if n == 2 then 0 else 1])
  in (f v, f vs[2] + i32.i64 i)
