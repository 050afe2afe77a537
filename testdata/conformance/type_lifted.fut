-- Size-lifted (type~) and fully lifted (type^) abbreviations: an array of
-- any size, and a function type.
type~ ints = []i32
type^ unop = i32 -> i32

def apply_all (f: unop) (xs: ints) : ints = map f xs

-- ==
-- input { [1, 2, 3] } output { [2, 4, 6] 3i64 }
entry main (xs: []i32) = (apply_all (* 2) xs, length (filter (> 0) xs : ints))
