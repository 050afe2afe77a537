-- Sizes that are the same in either branch of an if are one size after it;
-- a record update may change a field's size; an if's hint does not fix
-- its size from one branch.
def pairs (b: bool) : [](i32, i32) =
  let (xs, ys) = if b then ([1, 2, 3], [4, 5, 6]) else ([1, 2], [3, 4])
  in zip xs ys

def upd [n] [m] (xs: [n]i32) (ys: [m]i32) : ([m]i32, [m]i32) =
  let r = {xs, ys} with xs = ys
  in (r.xs, r.ys)

def branchy [n] [m] (b: bool) (xs: [n]i32) (ys: [m]i32) : []i32 =
  map (+ 1) (if b then map (* 2) xs else ys)

-- ==
-- input { true [1i32] [2i32, 3i32] }
-- output { [1i32, 2i32, 3i32] [4i32, 5i32, 6i32] [2i32, 3i32] [2i32, 3i32] [3i32] }
-- input { false [1i32] [2i32, 3i32] }
-- output { [1i32, 2i32] [3i32, 4i32] [2i32, 3i32] [2i32, 3i32] [3i32, 4i32] }
def main [n] [m] (b: bool) (xs: [n]i32) (ys: [m]i32) =
  let (p, q) = unzip (pairs b)
  let (u, v) = upd xs ys
  in (p, q, u, v, branchy b xs ys)
