-- The value reader wraps integers that do not fit (issue 17, bug 3).
-- ==
-- input { -1u32 300u8 } output { 4294967295u32 44u8 }
-- input { 4294967296u32 256u8 } output { 0u32 0u8 }
entry main (a: u32) (b: u8) : (u32, u8) = (a, b)
