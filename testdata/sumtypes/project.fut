-- A sum value is no tuple, though arepl represents it as one: projecting
-- a field of it is an error.
-- ==
-- error: cannot take field 0 of a value of sum type #n \| #s i32 \(not a tuple\)

type o = #n | #s i32

entry main (x: i32) : u8 = (#s x : o).0
