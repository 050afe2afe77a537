-- A program that must fail to load matches its regex ignoring case:
-- Futhark's message starts "Unknown name", arepl's "unknown name".
-- ==
-- error: Unknown name "nope"
entry main (x: i32) : i32 = x + nope
