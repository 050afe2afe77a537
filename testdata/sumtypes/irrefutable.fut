-- A constructor pattern as a whole let, parameter or lambda pattern is
-- irrefutable when its type has that one constructor.
-- ==
-- input { 3 4f32 } output { 6f32 }

type point = #pt i32 f32

def norm1 ((#pt x y): point) : f32 = f32.i32 (i32.abs x) + f32.abs y

entry main (a: i32) (b: f32) : f32 =
  let #pt c d = #pt (a + 1) (b - 1) : point
  let shift = \(#pt x y : point) -> #pt (x - 1) (y + 1) : point
  in norm1 (shift (#pt c d)) + f32.i32 (a - c)
