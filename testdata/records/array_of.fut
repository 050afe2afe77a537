-- Arrays of records are arrays of their fields; map builds and reads them.
-- ==
-- input { [1f32, 2f32] [3f32, 4f32] } output { [4f32, 6f32] }
entry main (xs: []f32) (ys: []f32) : []f32 = map (\p -> p.a + p.b) (map2 (\a b -> {a, b}) xs ys)
