-- A scan and a reduction over the same array fuse horizontally into one
-- screma, which the GPU backend runs as two statements: the scan (with the
-- map-outs and post-map) in the scan module, then the reduction in a
-- redomap kernel (eval/gpu/splitscan.go).
-- ==
-- entry: sum_and_scan
-- input { [1i32, 2i32, 3i32] } output { [1i32, 3i32, 6i32] 6i32 }
-- input { [5i32] } output { [5i32] 5i32 }
-- input { empty([0]i32) } output { empty([0]i32) 0i32 }
entry sum_and_scan (xs: []i32) : ([]i32, i32) = (scan (+) 0 xs, reduce (+) 0 xs)

-- With a map in front, a map-out, and a non-commutative reduction (the
-- last element other than -1, or -1 when there is none: -1 must be a true
-- neutral element, as Futhark requires; with `\_ b -> b` it was not, and
-- the GPU's tree of partials rightly gave -1).
-- ==
-- entry: with_map
-- input { [1i32, -2i32, 3i32] } output { [2i32, -4i32, 6i32] [2i32, -2i32, 4i32] 3i32 14i32 }
-- input { empty([0]i32) } output { empty([0]i32) empty([0]i32) -1i32 0i32 }
entry with_map (xs: []i32) : ([]i32, []i32, i32, i32) =
  let ys = map (\x -> x * 2) xs
  in (ys, scan (+) 0 ys, reduce (\a b -> if b == -1 then a else b) (-1) xs, reduce (+) 0 (map (\x -> x * x) xs))

-- The radix-sort shape: prefix sums of the bits and of their complements,
-- and the count of zeros, at sizes around a block; checked against loops.
-- ==
-- entry: bits
-- input { 0i64 } output { true }
-- input { 1i64 } output { true }
-- input { 2i64 } output { true }
-- input { 1000i64 } output { true }
-- input { 100000i64 } output { true }
entry bits (n: i64) : bool =
  let xs = map (\i -> (i * 7919) % 13) (iota n)
  let bits = map (\x -> x & 1) xs
  let inv = map (\b -> 1 - b) bits
  let ps0 = scan (+) 0 inv
  let ps1 = scan (+) 0 bits
  let zeros = reduce (+) 0 inv
  let (ok, _, _) =
    loop (ok, s0, s1) = (zeros == n - reduce (+) 0 bits, 0, 0) for i < n do
      let s0 = s0 + inv[i]
      let s1 = s1 + bits[i]
      in (ok && ps0[i] == s0 && ps1[i] == s1, s0, s1)
  in ok
