-- Line comments anywhere, and -- | doc comments above definitions.

-- | Doubles its argument.
def double (x: i32) : i32 = -- a trailing comment
  x * 2 -- another one

-- ==
-- input { 21i32 } output { 42i32 }
entry main (x: i32) : i32 =
  -- a comment inside an expression
  double x
