-- Named and anonymous sizes: [] in a parameter, a named size shared by a
-- parameter and the result, an existential result and a size-binding let.
def pairs [n] (xs: [n]i32) : [n](i32, i32) = zip xs (rotate 1 xs)

def evens (xs: []i32) : ?[k].[k]i32 = filter (\x -> x % 2 == 0) xs

-- ==
-- input { [1, 2, 3, 4] } output { [1, 2, 3, 4] [2, 3, 4, 1] [2, 4] 2i64 }
entry main (xs: []i32) =
  let (a, b) = unzip (pairs xs)
  let [k] (es: [k]i32) = evens xs
  in (a, b, es, k)
