-- A constructor pattern inside a tuple pattern of a let is outside what
-- arepl accepts (use match).
-- ==
-- error: constructor pattern \(#pt\) is allowed in match

type point = #pt i32 f32

entry main (a: i32) : i32 =
  let (#pt x _, k) = (#pt a 1, 2) : (point, i32)
  in x + k
