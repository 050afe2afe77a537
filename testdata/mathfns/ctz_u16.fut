-- u16.ctz counts trailing zero bits; zero has all of them (issue 17).
-- ==
-- input { 0u16 } output { 16i32 }
-- input { 1u16 } output { 0i32 }
-- input { 12u16 } output { 2i32 }
-- input { 65535u16 } output { 0i32 }
-- input { 0u16 } output { 16i32 }
-- input { 96u16 } output { 5i32 }
-- input { 65534u16 } output { 1i32 }
entry main (x: u16) : i32 = u16.ctz x
