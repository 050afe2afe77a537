-- match on booleans and float literals; a case that binds a name is taken
-- for every value that reaches it, and the body extends to the next case.
-- ==
-- input { true 0.5f32 } output { 1.5f32 1i64 }
-- input { false 2f32 } output { 4f32 3i64 }
-- input { false 1.5f32 } output { 0f32 3i64 }
entry main (b: bool) (x: f32) =
  (match x
   case 1.5 -> 0
   case 2.0f32 -> x * 2
   case y -> y + 1,
   match b case true -> 1i64 case false -> 1 + 2)
