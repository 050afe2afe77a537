-- Functions taking functions; partial application.
def twice (f: i32 -> i32) (x: i32) : i32 = f (f x)

def add (a: i32) (b: i32) : i32 = a + b

-- ==
-- input { 2i32 [1i32, 2i32] } output { 18i32 [4i32, 5i32] }
entry main (x: i32) (xs: []i32) : (i32, []i32) =
  let add3 = add 3
  in (twice (*3) x, map add3 xs)
