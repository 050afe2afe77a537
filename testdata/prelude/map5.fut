-- map5 applies a function of five arguments elementwise.
-- ==
-- input { [1f32] [2f32] [3f32] [4f32] [5f32] } output { [15f32] }
entry main (a: []f32) (b: []f32) (c: []f32) (d: []f32) (e: []f32) : []f32 = map5 (\v w x y z -> v + w + x + y + z) a b c d e
