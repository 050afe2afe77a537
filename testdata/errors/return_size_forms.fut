-- Return sizes named by an i64 parameter, an inner dimension (a slice's: [2] would be static), a
-- tuple component, a local function and a recursive function are all checked at run time;
-- `[]` and sizes bound nowhere (existential) accept any size.
def upto (n: i64) : [n]i64 = iota (n + 1)
def pairs [n] (xs: [n]i32) : [n][2]i32 = map (\x -> [x, x]) xs
def rows [n] (xs: [n]i32) : [n][n]i32 = map (\x -> [x, x][0:2]) xs
def split [n] (xs: [n]i32) : ([n]i32, []i32) = (filter (> 0) xs, xs)
def inner (xs: []i32) = let three (ys: []i32) : [3]i32 = ys in three xs
def grow [n] (k: i32) (xs: [n]i32) : [n]i32 = if k <= 0 then xs ++ xs else grow (k - 1) xs
def any_size (xs: []i32) : []i32 = filter (> 0) xs

-- ==
-- entry: upto_ok
-- input { 0i64 } error: Function return value does not match shape of declared return type
entry upto_ok (n: i64) = upto (n - 1)

-- ==
-- entry: pairs_ok
-- input { [1i32, 2i32] } output { [[1i32, 1i32], [2i32, 2i32]] }
entry pairs_ok (xs: []i32) = pairs xs

-- ==
-- entry: rows_bad
-- input { [1i32, 2i32] } output { [[1i32, 1i32], [2i32, 2i32]] }
-- input { [1i32, 2i32, 3i32] } error: Function return value does not match shape of declared return type
entry rows_bad (xs: []i32) = rows xs

-- ==
-- entry: split_bad
-- input { [1i32, 2i32] } output { [1i32, 2i32] [1i32, 2i32] }
-- input { [1i32, -2i32] } error: Function return value does not match shape of declared return type
entry split_bad (xs: []i32) = split xs

-- ==
-- entry: local_bad
-- input { [1i32, 2i32, 3i32] } output { [1i32, 2i32, 3i32] }
-- input { [1i32, 2i32] } error: return_size_forms.fut:8:25: Function return value does not match shape of declared return type
entry local_bad (xs: []i32) = inner xs

-- ==
-- entry: grow_bad
-- input { 2i32 [1i32] } error: return_size_forms.fut:9:1: Function return value does not match shape of declared return type
-- input { 2i32 empty([0]i32) } output { empty([0]i32) }
entry grow_bad (k: i32) (xs: []i32) = grow k xs

-- ==
-- entry: any_ok
-- input { [1i32, -2i32, 3i32] } output { [1i32, 3i32] }
entry any_ok (xs: []i32) = any_size xs
