-- A f32 literal that rounds to the largest finite f32 fits (Futhark prints
-- that value as 3.4028235e38f32); one that rounds to infinity does not.
-- ==
-- input { } output { 2139095039u32 }
entry main : u32 = f32.to_bits 3.4028235e38f32
