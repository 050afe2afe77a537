-- Programs that Futhark's uniqueness rules accept: unique parameters,
-- copies, fresh arrays from SOACs, loops that own their parameter, a
-- consumption in each branch of an if, and shadowing.
-- ==
-- entry: owned
-- input { [1i32, 2i32, 3i32] } output { [9i32, 2i32, 3i32] }
entry owned (xs: *[]i32) : []i32 =
  let xs[0] = 9
  in xs

-- ==
-- entry: copied
-- input { [1i32, 2i32, 3i32] } output { [1i32, 0i32, 3i32] }
entry copied (xs: []i32) : []i32 =
  let ys = copy xs
  let ys[1] = 0
  in ys

-- ==
-- entry: from_map
-- input { [1i32, 2i32, 3i32] } output { [0i32, 3i32, 4i32] }
entry from_map (xs: []i32) : []i32 =
  let ys = map (+ 1) xs
  in ys with [0] = 0

-- ==
-- entry: loop_copy
-- input { 2i64 [5i32, 5i32, 5i32] } output { [0i32, 1i32, 5i32] }
entry loop_copy (n: i64) (xs: []i32) : []i32 =
  loop acc = copy xs for i < n do acc with [i] = i32.i64 i

-- ==
-- entry: loop_unique
-- input { 2i64 [5i32, 5i32, 5i32] } output { [0i32, 1i32, 5i32] }
entry loop_unique (n: i64) (xs: *[]i32) : []i32 =
  loop xs for i < n do xs with [i] = i32.i64 i

-- ==
-- entry: branches
-- input { true [1i32, 2i32] } output { [7i32, 2i32] }
-- input { false [1i32, 2i32] } output { [1i32, 7i32] }
entry branches (b: bool) (xs: *[]i32) : []i32 =
  if b then xs with [0] = 7 else xs with [1] = 7

-- ==
-- entry: consumer
-- input { [1i32, 2i32] } output { [0i32, 2i32] }
def zero_first (a: *[]i32) : *[]i32 = a with [0] = 0
entry consumer (xs: []i32) : []i32 = zero_first (copy xs)

-- ==
-- entry: scatter_fresh
-- input { [2i64, 0i64] [8i32, 9i32] } output { [9i32, 0i32, 8i32] }
entry scatter_fresh (is: []i64) (vs: []i32) : []i32 = scatter (replicate 3 0) is vs

-- ==
-- entry: observe_then_consume
-- input { [1i32, 2i32, 3i32] } output { 6i32 [0i32, 2i32, 3i32] }
entry observe_then_consume (xs: *[]i32) : (i32, []i32) =
  let s = i32.sum xs
  in (s, xs with [0] = 0)

-- A lambda's own unique parameter, and an update of a row of a fresh matrix.
-- ==
-- entry: rows
-- input { [1i32, 2i32] } output { [[0i32, 2i32], [1i32, 0i32]] }
entry rows (xs: []i32) : [][]i32 =
  let m = replicate 2 xs
  let m[0, 0] = 0
  let m[1] = (\(r: *[]i32) -> r with [1] = 0) (copy xs)
  in m

-- A top-level constant, read and copied.
-- ==
-- entry: from_global
-- input { 2i32 } output { [3i32, 4i32, 5i32] [1i32, 2i32, 3i32] }
def table : []i32 = [1, 2, 3]
entry from_global (x: i32) : ([]i32, []i32) = (map (+ x) table, copy table)

-- Two different arrays for a consuming and an observing parameter.
-- ==
-- entry: two_args
-- input { [1i32, 2i32] [10i32, 20i32] } output { 11i32 }
def add_firsts (a: *[]i32) (b: []i32) : i32 = let a[1] = 0 in a[0] + b[0] + a[1]
entry two_args (xs: *[]i32) (ys: []i32) : i32 = add_firsts xs ys

-- A unique component beside an observed copy, and a consuming function
-- applied directly rather than passed.
-- ==
-- entry: split_copy
-- input { [1i32, 2i32] } output { [5i32, 2i32] [1i32, 2i32] }
def split_copy_of (xs: *[]i32) : (*[]i32, []i32) = let c = copy xs in (xs with [0] = 5, c)
entry split_copy (xs: *[]i32) : ([]i32, []i32) = split_copy_of xs

-- A loop over a copy that reads the original.
-- ==
-- entry: loop_reads_original
-- input { 2i64 [1i32, 2i32, 3i32] } output { [2i32, 4i32, 3i32] }
entry loop_reads_original (n: i64) (xs: []i32) : []i32 =
  let ys = copy xs
  in loop ys for i < n do ys with [i] = xs[i] + ys[i]

-- The unique component of a tuple result is fresh; the other aliases
-- the argument.
-- ==
-- entry: tuple_result
-- input { [1i32, 2i32] } output { [9i32, 2i32] [1i32, 2i32] }
def copy_and_keep (xs: []i32) : (*[]i32, []i32) = (copy xs, xs)
entry tuple_result (xs: []i32) : ([]i32, []i32) =
  let (a, b) = copy_and_keep xs
  let a[0] = 9
  in (a, b)
