-- Scanomap-scanomap fusion (scanomap paper, section 6.4): two independent
-- map-scan pipelines over the same input fuse horizontally into one scanomap
-- that reads the input once and produces both results.

-- ==
-- input { [1i32, -2i32, 3i32] }
-- output { [2i32, -2i32, 4i32] [-2i32, -2i32, 0i32] }
-- input { empty([0]i32) } output { empty([0]i32) empty([0]i32) }
-- plan { scanomap 1 map 0 }
entry main (inp: []i32) : ([]i32, []i32) =
  let a = scan (+) 0 (map (* 2) inp)
  let b = scan i32.max i32.lowest (map (\x -> x - 3) inp)
  in (a, b)
