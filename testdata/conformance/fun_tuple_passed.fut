-- Tuples and records of functions passed to and returned from functions,
-- captured by a lambda inside map, and nested inside other tuples.
-- ==
-- input { [1i32, 2i32, 3i32] } output { [4i32, 6i32, 8i32] 9i32 [2i32, 3i32, 4i32] }

def compose_pair (fs: (i32 -> i32, i32 -> i32)) (x: i32) = fs.1 (fs.0 x)
def make (k: i32) = ({f = \(y: i32) -> y + k}, k)
def apply_all 'a (p: (a -> a, a -> a)) (x: a) = p.0 (p.1 x)

entry main (xs: []i32) =
  let fs = ((+ 1), (* 2))
  let (rec, k) = make 1
  let nested = ((fs, rec), k)
  in (map (compose_pair fs) xs,
      apply_all ((+ 1), (* 2)) 4,
      map (\x -> nested.0.1.f x) xs)
