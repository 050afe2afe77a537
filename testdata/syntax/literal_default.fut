-- With nothing to say otherwise, an integer literal is i32 (and wraps as
-- one) and a decimal literal is f64.
-- ==
-- entry: ints
-- input { true } output { -2147483648i32 }
-- input { false } output { 2147483647i32 }
entry ints (b: bool) =
  let x = 2147483647
  in if b then x + 1 else x

-- ==
-- entry: floats
-- input { true } output { 3.0f64 }
-- input { false } output { 1.5f64 }
entry floats (b: bool) =
  let y = 1.5
  in if b then y * 2.0 else y
