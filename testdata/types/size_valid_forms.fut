-- Programs whose sizes Futhark accepts load: a size parameter takes another
-- size at each call, `iota n` has size n, a local function's sizes are its
-- own, a loop parameter without a declared size may change size, and
-- sizes named by an i64 in scope are rigid only where they are named.
def dup [n] (xs: [n]i32) : [n]i32 = map2 (+) xs xs

def pairs [n] [m] (xs: [n]i32) (ys: [m]i32) : ([n]i32, [m]i32) = (dup xs, dup ys)

def count [n] (xs: [n]i32) : [n]i64 = map2 (\i _ -> i) (iota n) xs

def locals [n] [m] (xs: [n]i32) (ys: [m]i32) : i32 =
  let total [k] (zs: [k]i32) : i32 = reduce (+) 0 zs
  let twice [k] (zs: [k]i32) : [k]i32 = map (* 2) zs
  in total (twice xs) + total (twice ys)

def grow (n: i32) (xs: []i32) : []i32 =
  loop (acc: []i32) = xs for _i < n do acc ++ acc

def grow2 (n: i32) (xs: []i32) : []i32 =
  loop acc = xs for _i < n do acc ++ [1]

def same [n] (xs: [n]i32) : [n]i32 =
  loop acc = copy xs for i < n do acc with [i] = acc[i] + 1

def pick [n] [m] (b: bool) (xs: [n]i32) (ys: [m]i32) : []i32 =
  if b then xs else ys

-- ==
-- entry: main
-- input { [1i32, 2i32] [3i32, 4i32, 5i32] }
-- output { [2i32, 4i32] [6i32, 8i32, 10i32] [0i64, 1i64] 30i32 [1i32, 2i32, 1i32, 2i32, 1i32, 2i32, 1i32, 2i32] [1i32, 2i32, 1i32] [2i32, 3i32] 3i64 }
entry main [n] [m] (xs: [n]i32) (ys: [m]i32) =
  let (a, b) = pairs xs ys
  in (a, b, count xs, locals xs ys, grow 2 xs, grow2 1 xs, same xs, length (pick false xs ys))
