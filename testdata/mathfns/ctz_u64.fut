-- u64.ctz counts trailing zero bits; zero has all of them (issue 17).
-- ==
-- input { 0u64 } output { 64i32 }
-- input { 1u64 } output { 0i32 }
-- input { 12u64 } output { 2i32 }
-- input { 18446744073709551615u64 } output { 0i32 }
-- input { 0u64 } output { 64i32 }
-- input { 96u64 } output { 5i32 }
-- input { 18446744073709551614u64 } output { 1i32 }
entry main (x: u64) : i32 = u64.ctz x
