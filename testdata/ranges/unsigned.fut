-- Ranges of any integer type.
-- ==
-- input { 250u8 } output { [250u8, 251u8, 252u8, 253u8, 254u8] [0u16, 5u16, 10u16] }
entry main (a: u8) : ([]u8, []u16) = (a..<255, 0u16..5...10)
