-- A projection or index section may go on with more fields and indices,
-- mixed: (.pos[1]), (.[2].w), (.cols[0][1:]).
-- ==
-- input { [1f32, 2f32, 3f32] [4f32, 5f32, 6f32] }
-- output { 2f32 [6f32, 7f32, 8f32] [5f32, 6f32] 3f32 }

entry main (xs: []f32) (ys: []f32) =
  let p = {pos = xs, cols = [ys, xs]}
  let ws = map (\x -> {w = x + 5, k = 0i32}) xs
  in ( (.pos[1]) p
     , map (.w) ws
     , (.cols[0][1:]) p
     , (.[2].w) ws - 5
     )
