-- u32.ctz counts trailing zero bits; zero has all of them (issue 17).
-- ==
-- input { 0u32 } output { 32i32 }
-- input { 1u32 } output { 0i32 }
-- input { 12u32 } output { 2i32 }
-- input { 4294967295u32 } output { 0i32 }
-- input { 0u32 } output { 32i32 }
-- input { 96u32 } output { 5i32 }
-- input { 4294967294u32 } output { 1i32 }
entry main (x: u32) : i32 = u32.ctz x
