-- A polymorphic sum type, constructors whose type comes from context,
-- sums in tuples, as function results, as loop state and compared with ==.
-- ==
-- input { [3, -1, 7, 0] 7 } output { 2i64 true 9 [4, 10, 8, 10] }
-- input { [1, 2] 5 } output { -1i64 false 2 [2, 3] }

type opt 'a = #none | #some a

def find (xs: []i32) (x: i32) : opt i64 =
  loop r = #none for i < length xs do
    match r
    case #some _ -> r
    case #none -> if xs[i] == x then #some i else #none

def get 'a (d: a) (o: opt a) : a =
  match o
  case #some v -> v
  case #none -> d

def positive (x: i32) : opt i32 = if x > 0 then #some x else #none

entry main (xs: []i32) (x: i32) : (i64, bool, i32, []i32) =
  let r = find xs x
  let firsts = map positive xs
  let sum = reduce (+) 0 (map (get 0) firsts)
  let found = r != (#none : opt i64)
  let bumped = map (\o -> match (o, 1) case (#some v, k) -> v + k case (#none, k) -> k - 1) (map positive xs)
  in (get (-1) r, found, sum - 1, map2 (\o y -> if o == #none then y + 10 else y) (map positive xs) bumped)
