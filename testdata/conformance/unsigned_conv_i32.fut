-- u64.i32 zero-extends; i64.u32 zero-extends; i64.i32 sign-extends.
-- ==
-- input { -2i32 4294967295u32 } output { 4294967294u64 4294967295i64 -2i64 }
entry main (a: i32) (b: u32) : (u64, i64, i64) = (u64.i32 a, i64.u32 b, i64.i32 a)
