-- `for x in xs` iterates over the elements of an array.
-- ==
-- input { [1i32, 0i32, 1i32, 1i32] } output { 11i32 }
-- input { empty([0]i32) } output { 0i32 }
entry main (bits: []i32) : i32 = loop acc = 0 for b in bits do acc * 2 + b
