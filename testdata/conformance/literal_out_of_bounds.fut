-- A literal outside its type's range is an error in Futhark's words ("out
-- of bounds"); a negated literal at an unsigned type is one too, while
-- negating a value wraps.
-- ==
-- error: -7 is out of bounds for type u16

entry wraps (x: u16) : u16 = -x

entry minus_seven : u16 = -7
