-- reduce_by_index ignores negative and too-large indices.
-- ==
-- input { [1i64, 1i64] [-1i64, 2i64, 1i64, -100i64] } output { [1i64, 4i64] }
entry main (dest: *[]i64) (is: []i64) : []i64 = reduce_by_index dest i64.max i64.lowest is (map (+3) is)
