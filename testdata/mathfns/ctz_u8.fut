-- u8.ctz counts trailing zero bits; zero has all of them (issue 17).
-- ==
-- input { 0u8 } output { 8i32 }
-- input { 1u8 } output { 0i32 }
-- input { 12u8 } output { 2i32 }
-- input { 255u8 } output { 0i32 }
-- input { 0u8 } output { 8i32 }
-- input { 96u8 } output { 5i32 }
-- input { 254u8 } output { 1i32 }
entry main (x: u8) : i32 = u8.ctz x
