-- The parts of Futhark's prelude (array.fut, soacs.fut, functional.fut,
-- zip.fut) that are not builtins, written in the subset itself. Each is
-- polymorphic; a use is checked as an instance and inlined by lowering,
-- so it becomes the slices, maps, scans and scatters it is made of, and
-- fuses with its neighbours like hand-written code.

-- | a copy of a value.
def copy 't (x: t) : t = x
-- | a copy of a value in memory (the same as copy here).
def manifest 't (x: t) : t = x

-- | the first i elements of an array.
def take [n] 't (i: i64) (xs: [n]t) : []t = xs[0:i]
-- | an array without its first i elements.
def drop [n] 't (i: i64) (xs: [n]t) : []t = xs[i:]
-- | an array split in two at index i.
def split [n] 't (i: i64) (xs: [n]t) : ([]t, []t) = (xs[0:i], xs[i:])
-- | the first element of an array.
def head [n] 't (xs: [n]t) : t = xs[0]
-- | the last element of an array.
def last [n] 't (xs: [n]t) : t = xs[n - 1]
-- | an array without its first element.
def tail [n] 't (xs: [n]t) : []t = xs[1:]
-- | an array without its last element.
def init [n] 't (xs: [n]t) : []t = xs[0:n - 1]
-- | whether an array is empty.
def null [n] 't (xs: [n]t) : bool = n == 0
-- | an array given the size n (checked at run time where it matters).
def sized [m] 't (n: i64) (xs: [m]t) : [n]t = xs :> [n]t

-- | a sequential left fold.
def foldl [n] 'a 'b (f: a -> b -> a) (acc: a) (bs: [n]b) : a =
  loop acc for b in bs do f acc b
-- | a sequential right fold.
def foldr [n] 'a 'b (f: b -> a -> a) (acc: a) (bs: [n]b) : a =
  loop acc for b in reverse bs do f b acc

-- | the array [f 0, f 1, ..., f (n-1)].
def tabulate 'a (n: i64) (f: i64 -> a) : [n]a = map f (iota n)
-- | an n by m array of f i j.
def tabulate_2d 'a (n: i64) (m: i64) (f: i64 -> i64 -> a) : [n][m]a =
  map (\i -> map (f i) (iota m)) (iota n)
-- | an n by m by o array of f i j k.
def tabulate_3d 'a (n: i64) (m: i64) (o: i64) (f: i64 -> i64 -> i64 -> a) : [n][m][o]a =
  map (\i -> map (\j -> map (f i j) (iota o)) (iota m)) (iota n)


-- | apply a function to every element of an array (map).
def map1 [n] 'a 'b (f: a -> b) (as: [n]a) : [n]b = map f as
-- | apply a function to the elements of four arrays.
def map4 [n] 'a 'b 'c 'd 'e (f: a -> b -> c -> d -> e) (as: [n]a) (bs: [n]b) (cs: [n]c) (ds: [n]d) : [n]e =
  map3 (\a b (c, d) -> f a b c d) as bs (zip cs ds)
-- | apply a function to the elements of five arrays.
def map5 [n] 'a 'b 'c 'd 'e 'f (g: a -> b -> c -> d -> e -> f) (as: [n]a) (bs: [n]b) (cs: [n]c) (ds: [n]d) (es: [n]e) : [n]f =
  map3 (\a b (c, d, e) -> g a b c d e) as bs (zip3 cs ds es)
-- | combine four arrays into an array of 4-tuples.
def zip4 [n] 'a 'b 'c 'd (as: [n]a) (bs: [n]b) (cs: [n]c) (ds: [n]d) : [n](a, b, c, d) =
  map3 (\a b (c, d) -> (a, b, c, d)) as bs (zip cs ds)
-- | combine five arrays into an array of 5-tuples.
def zip5 [n] 'a 'b 'c 'd 'e (as: [n]a) (bs: [n]b) (cs: [n]c) (ds: [n]d) (es: [n]e) : [n](a, b, c, d, e) =
  map3 (\a b (c, d, e) -> (a, b, c, d, e)) as bs (zip3 cs ds es)
-- | combine two arrays into an array of pairs (zip).
def zip2 [n] 'a 'b (as: [n]a) (bs: [n]b) : [n](a, b) = zip as bs
-- | split an array of pairs into two arrays (unzip).
def unzip2 [n] 'a 'b (xs: [n](a, b)) : ([n]a, [n]b) = unzip xs
-- | split an array of 4-tuples into four arrays.
def unzip4 [n] 'a 'b 'c 'd (xs: [n](a, b, c, d)) : ([n]a, [n]b, [n]c, [n]d) =
  (map (.0) xs, map (.1) xs, map (.2) xs, map (.3) xs)
-- | split an array of 5-tuples into five arrays.
def unzip5 [n] 'a 'b 'c 'd 'e (xs: [n](a, b, c, d, e)) : ([n]a, [n]b, [n]c, [n]d, [n]e) =
  (map (.0) xs, map (.1) xs, map (.2) xs, map (.3) xs, map (.4) xs)

-- | exclusive prefix scan: the neutral element first, the last total left out.
def exscan [n] 'a (op: a -> a -> a) (ne: a) (as: [n]a) : [n]a =
  let s = scan op ne as
  in map (\i -> if i == 0 then ne else s[i - 1]) (iota n)

-- | an array of k copies of x with the values vs written at the indices is.
def spread [n] 't (k: i64) (x: t) (is: [n]i64) (vs: [n]t) : [k]t =
  scatter (replicate k x) is vs

-- | write values at (row, column) indices of a two-dimensional array.
def scatter_2d [h][w][n] 't (dest: [h][w]t) (is: [n](i64, i64)) (vs: [n]t) : [h][w]t =
  let flat = map (\(i, j) -> if i >= 0 && i < h && j >= 0 && j < w then i * w + j else -1) is
  in unflatten (scatter (flatten dest) flat vs) : [h][w]t

-- | write values at three-dimensional indices of an array.
def scatter_3d [h][w][d][n] 't (dest: [h][w][d]t) (is: [n](i64, i64, i64)) (vs: [n]t) : [h][w][d]t =
  let flat = map (\(i, j, k) -> if i >= 0 && i < h && j >= 0 && j < w && k >= 0 && k < d
                                then (i * w + j) * d + k else -1) is
  in unflatten_3d (scatter (flatten_3d dest) flat vs) : [h][w][d]t

-- | combine values into the bins of a two-dimensional array.
def reduce_by_index_2d [h][w][n] 't (dest: [h][w]t) (f: t -> t -> t) (ne: t) (is: [n](i64, i64)) (vs: [n]t) : [h][w]t =
  let flat = map (\(i, j) -> if i >= 0 && i < h && j >= 0 && j < w then i * w + j else -1) is
  in unflatten (reduce_by_index (flatten dest) f ne flat vs) : [h][w]t

-- | combine values into the bins of a three-dimensional array.
def reduce_by_index_3d [h][w][d][n] 't (dest: [h][w][d]t) (f: t -> t -> t) (ne: t) (is: [n](i64, i64, i64)) (vs: [n]t) : [h][w][d]t =
  let flat = map (\(i, j, k) -> if i >= 0 && i < h && j >= 0 && j < w && k >= 0 && k < d
                                then (i * w + j) * d + k else -1) is
  in unflatten_3d (reduce_by_index (flatten_3d dest) f ne flat vs) : [h][w][d]t

-- | split an array three ways: p1 holds, else p2 holds, else neither.
def partition2 [n] 't (p1: t -> bool) (p2: t -> bool) (xs: [n]t) : ([]t, []t, []t) =
  (filter p1 xs, filter (\x -> !(p1 x) && p2 x) xs, filter (\x -> !(p1 x) && !(p2 x)) xs)

-- | a function with its two arguments swapped.
def flip '^a '^b '^c (f: a -> b -> c) (b: b) (a: a) : c = f a b
-- | a function on pairs as a function of two arguments.
def curry '^a '^b '^c (f: (a, b) -> c) (a: a) (b: b) : c = f (a, b)
-- | a function of two arguments as a function on pairs.
def uncurry '^a '^b '^c (f: a -> b -> c) (p: (a, b)) : c = f p.0 p.1
-- | the function that returns x whatever its argument.
def const '^a '^b (x: a) (_: b) : a = x
-- | the identity function.
def id '^a (x: a) : a = x

-- | apply f n times.
def iterate 'a (n: i32) (f: a -> a) (x: a) : a = loop x for _i < n do f x
-- | apply f until p holds.
def iterate_until 'a (p: a -> bool) (f: a -> a) (x: a) : a = loop x while !(p x) do f x
-- | apply f while p holds.
def iterate_while 'a (p: a -> bool) (f: a -> a) (x: a) : a = loop x while p x do f x

-- | f's arrays concatenated, with segment sizes, start flags, offsets and f's other results.
def flatmap [n] 'a 'b 'c (f: a -> ([]b, c)) (as: [n]a) : ([n]i64, []bool, [n]i64, []b, [n]c) =
  -- Futhark's flatmap: f may give arrays of different sizes. The segment
  -- of each output position is found from the offsets, and f is applied
  -- again there (the subset has no irregular arrays to keep results in).
  let sizes = map (\x -> length (f x).0) as
  let offsets = exscan (+) 0 sizes
  let m = reduce (+) 0 sizes
  -- The segment of every position: each nonempty segment's index at its
  -- start, carried forward by a max-scan (indices grow with positions).
  let starts = scatter (replicate m 0i64) (map2 (\o s -> if s > 0 then o else -1) offsets sizes) (iota n)
  let segs = scan i64.max 0 starts
  let flags = map2 (\j i -> j == offsets[i]) (iota m) segs
  let data = map2 (\j i -> (f as[i]).0[j - offsets[i]]) (iota m) segs
  in (sizes, flags, offsets, data, map (\x -> (f x).1) as)
-- | flatmap without the other results.
def flatmap' [n] 'a 'b (f: a -> []b) (as: [n]a) : ([n]i64, []bool, [n]i64, []b) =
  let (sizes, flags, offsets, data, _) = flatmap (\x -> (f x, ())) as
  in (sizes, flags, offsets, data)

-- | i32 to f32.
def r32 (x: i32) : f32 = f32.i32 x
-- | f32 to i32 (truncating).
def t32 (x: f32) : i32 = i32.f32 x
-- | i32 to f64.
def r64 (x: i32) : f64 = f64.i32 x
-- | f64 to i32 (truncating).
def t64 (x: f64) : i32 = i32.f64 x
-- | logical negation.
def not (x: bool) : bool = !x
-- | x itself (Futhark: hides x from the optimiser; nothing to hide here).
def opaque 't (x: t) : t = x
-- | x itself (Futhark prints it when tracing; arepl does not trace).
def trace 't (x: t) : t = x
-- | x itself (Futhark's debugger stops here; arepl has no debugger).
def break 't (x: t) : t = x
