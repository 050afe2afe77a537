-- A local open i32.(e) of a numeric module: inside e the module's names
-- and operators are in scope, shadowing those bound outside the open
-- (the outer max here) but not those bound inside it (the lambda's pi).
def max = 100f32

-- ==
-- input { 2f32 3f32 } output { 7f32 3f32 3.1415927f32 8f32 [1f32, 2f32] 5i32 }
entry main (a: f32) (b: f32) =
  (f32.(a * b + 1),
   f32.(max a b),
   f32.(pi),
   f32.(a ** b),
   f32.(map (\pi -> pi - 1) [a, b]),
   i32.(abs (-5)))
